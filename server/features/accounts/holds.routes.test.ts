import { describe, expect, it } from 'vitest';
import { HELD_NEEDS_MANAGER, HELD_NEEDS_REASON } from '@domain/billing/holds';
import { HELD_IN_WAREHOUSE, HELD_ON_RACK } from './holds.service';
import { dayOf, isoOf } from '@domain/billing/days';
import type {
  AccountDto,
  AccountSummaryDto,
  BillingOverviewDto,
  BillingRunDto,
  HoldsDto,
  NotBilledOrderDto,
} from '@domain/schemas/billing.schema';
import type { ActivityItemDto } from '@domain/schemas/activity.schema';
import type { PullListDto } from '@domain/schemas/pull-list.schema';
import { buildAccount, buildPallet, buildRack, buildVault, buildWarehouse } from '../../factories';
import { signIn, type SignedIn, testEngines } from '../../test/test-app';
import { useTestApp } from '../../test/use-test-app';
import { today } from './accounts.service';

const errorsOf = (res: { json(): unknown }) => (res.json() as { errors: string[] }).errors.join(' ');
const daysAgo = (n: number) => isoOf(dayOf(today()) - n);

describe.each(testEngines())('holds, the billing overview and the hold override on %s', (engine) => {
  const { ctx, user, other } = useTestApp(engine);
  const db = () => ctx.database.db;
  const as = async (role: 'office' | 'floor' | 'viewer') =>
    signIn(ctx, await buildAccount(db(), { company: user.companyName, role }));
  const post = (who: SignedIn, url: string, payload?: object) =>
    who.request({ method: 'POST', url, ...(payload ? { payload } : {}) });
  const get = (who: SignedIn, url: string) => who.request({ method: 'GET', url });

  /** An order of one vault per field (A1, A2, ...) of a new warehouse, moved in 200 days ago. */
  async function storedOrder(customer: string, order: string, units: number) {
    const wh = await buildWarehouse(db(), { companyId: user.companyId, rows: 2, cols: 2, fieldCapacity: 3 });
    const ids: number[] = [];
    for (let i = 0; i < units; i++)
      ids.push(
        (
          await buildVault(db(), {
            companyId: user.companyId,
            fieldId: wh.field(['A1', 'A2', 'B1', 'B2'][i]!).id,
            customerName: customer,
            orderName: order,
            name: `${order}-${i + 1}`,
          })
        ).id,
      );
    await db()
      .updateTable('vaults')
      .set({ created_at: `${daysAgo(200)}T12:00:00.000Z` })
      .where('id', 'in', ids)
      .execute();
    const notBilled = (await get(user, '/api/storage-accounts/not-billed')).json() as NotBilledOrderDto[];
    return { ids, warehouseId: wh.id, orderId: notBilled.find((o) => o.order_name === order)!.order_id };
  }

  it('puts only an account overdue enough on hold, badges its units, and shows amounts to Office and Managers only', async () => {
    const [office, floor, viewer] = [await as('office'), await as('floor'), await as('viewer')];
    const held = await storedOrder('HOLLY', 'HOLD-1', 2);
    const sit = await storedOrder('SITTA', 'SIT-1', 1);
    expect(
      (
        await post(user, '/api/billing/rates', {
          kind: 'storage',
          unit_type: 'vault',
          amount: 10_000,
          effective_from: '2025-01-01',
        })
      ).statusCode,
    ).toBe(201);
    expect(
      (
        await post(user, '/api/billing/rates', {
          kind: 'storage',
          unit_type: 'vault',
          warehouse_id: sit.warehouseId,
          amount: 15_000,
          effective_from: '2025-01-01',
        })
      ).statusCode,
    ).toBe(201);
    const account = (
      await post(office, '/api/storage-accounts', { order_ids: [held.orderId], kind: 'permanent' })
    ).json() as AccountDto;
    const sitStart = daysAgo(80);
    const sitAccount = await post(office, '/api/storage-accounts', {
      order_ids: [sit.orderId],
      kind: 'sit',
      sit_authorization: 'AUTH-9',
      sit_payer: 'customer',
      sit_start: sitStart,
      sit_days_allowed: 90,
    });
    expect(sitAccount.statusCode).toBe(201);

    const month = daysAgo(40).slice(0, 7);
    const run = (await post(office, '/api/billing/runs', { period: month })).json() as BillingRunDto;
    const invoice = run.issued.find((i) => i.account_id === account.id)!;
    expect(invoice.total).toBeGreaterThan(0);

    // nothing past due yet: refused, with the rule in words
    const early = await post(office, `/api/storage-accounts/${account.id}/hold`);
    expect(early.statusCode).toBe(409);
    expect(errorsOf(early)).toContain('nothing on this account is past due');
    expect(errorsOf(early)).toContain('60 days overdue');

    // 45 days past due, holds from 60: still refused
    await db()
      .updateTable('invoices')
      .set({ due_date: daysAgo(45) })
      .where('account_id', '=', account.id)
      .execute();
    const notYet = await post(office, `/api/storage-accounts/${account.id}/hold`);
    expect(notYet.statusCode).toBe(409);
    expect(errorsOf(notYet)).toContain('45 days past due');
    // the list says so before anyone presses Hold: overdue, but no hold to take yet
    const standing = async () => {
      const list = (await get(office, '/api/storage-accounts')).json() as AccountSummaryDto[];
      const { days_overdue, may_hold, on_hold } = list.find((a) => a.id === account.id)!;
      return { days_overdue, may_hold, on_hold };
    };
    expect(await standing()).toEqual({ days_overdue: 45, may_hold: false, on_hold: false });

    // 75 days past due: Floor and Viewer are refused the hold, Office puts it
    await db()
      .updateTable('invoices')
      .set({ due_date: daysAgo(75) })
      .where('account_id', '=', account.id)
      .execute();
    const beforeHold = (await get(office, '/api/billing/overview')).json() as BillingOverviewDto;
    expect(beforeHold.may_hold).toBe(1);
    expect(await standing()).toEqual({ days_overdue: 75, may_hold: true, on_hold: false });
    expect(beforeHold.on_hold).toBe(0);
    for (const who of [floor, viewer])
      expect((await post(who, `/api/storage-accounts/${account.id}/hold`)).statusCode).toBe(403);
    const hold = await post(office, `/api/storage-accounts/${account.id}/hold`);
    expect(hold.statusCode).toBe(200);
    const onHold = hold.json() as AccountDto;
    expect(onHold.on_hold).toBe(true);
    expect(onHold.history[0]).toMatchObject({ kind: 'hold' });
    expect(onHold.history[0]!.detail).toContain('75 days overdue');
    expect(onHold).toMatchObject({ days_overdue: 75, may_hold: false });
    expect(await standing()).toEqual({ days_overdue: 75, may_hold: false, on_hold: true });
    expect((await post(office, `/api/storage-accounts/${account.id}/hold`)).statusCode).toBe(409);

    // the badge: every member reads which units are held, no amount in it
    for (const who of [viewer, floor, office, user]) {
      const holds = (await get(who, '/api/holds')).json() as HoldsDto;
      expect(holds.vault_ids.sort()).toEqual([...held.ids].sort());
    }
    expect(((await get(other, '/api/holds')).json() as HoldsDto).vault_ids).toEqual([]);
    expect((await post(other, `/api/storage-accounts/${account.id}/hold`)).statusCode).toBe(404);

    // the overview: Office and Managers only
    for (const who of [floor, viewer]) expect((await get(who, '/api/billing/overview')).statusCode).toBe(403);
    const overview = (await get(office, '/api/billing/overview')).json() as BillingOverviewDto;
    expect(overview.overdue_total).toBe(invoice.total);
    expect(overview.overdue_accounts).toBe(1);
    expect(overview.on_hold).toBe(1);
    expect(overview.may_hold).toBe(0);
    expect(overview.upcoming_conversions).toEqual([
      expect.objectContaining({ customer_name: 'SITTA', conversion_date: daysAgo(-10), days_left: 10 }),
    ]);
    const revenueOf = (id: number) => overview.revenue.find((r) => r.warehouse_id === id);
    expect(revenueOf(held.warehouseId)).toMatchObject({ units: 2, monthly: 20_000, unrated: 0 });
    expect(revenueOf(sit.warehouseId)).toMatchObject({ units: 1, monthly: 15_000, unrated: 0 });

    // lifted: the badge goes, a second lift is refused
    const lifted = await user.request({ method: 'DELETE', url: `/api/storage-accounts/${account.id}/hold` });
    expect(lifted.statusCode).toBe(200);
    expect((lifted.json() as AccountDto).on_hold).toBe(false);
    expect(((await get(viewer, '/api/holds')).json() as HoldsDto).vault_ids).toEqual([]);
    const again = await user.request({ method: 'DELETE', url: `/api/storage-accounts/${account.id}/hold` });
    expect(again.statusCode).toBe(409);
    expect(errorsOf(again)).toContain('not on hold');
  });

  it('lets a held unit be pulled or released only with a Manager override and a reason, kept in both histories', async () => {
    const floor = await as('floor');
    const held = await storedOrder('HOLDEN', 'HOLD-2', 2);
    const account = (
      await post(user, '/api/storage-accounts', { order_ids: [held.orderId], kind: 'permanent' })
    ).json() as AccountDto;
    await db().updateTable('storage_accounts').set({ on_hold: 1 }).where('id', '=', account.id).execute();

    const list = (await post(floor, '/api/pull-lists', { order_name: 'HOLD-2' })).json() as PullListDto;
    const step = (who: SignedIn, vaultId: number, reason?: string) =>
      post(who, `/api/pull-lists/${list.id}/steps`, {
        vault_id: vaultId,
        action: 'pulled',
        ...(reason !== undefined ? { override_reason: reason } : {}),
      });

    const refused = await step(floor, held.ids[0]!, 'customer is here');
    expect(refused.statusCode).toBe(403);
    expect(errorsOf(refused)).toBe(HELD_NEEDS_MANAGER);
    const noReason = await step(user, held.ids[0]!);
    expect(noReason.statusCode).toBe(409);
    expect(errorsOf(noReason)).toBe(HELD_NEEDS_REASON);
    expect((await step(user, held.ids[0]!, '   ')).statusCode).toBe(409);
    const vaultNow = (id: number) =>
      db()
        .selectFrom('vaults')
        .select(['field_id', 'released_at'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
    expect((await vaultNow(held.ids[0]!)).field_id).not.toBeNull();

    expect((await step(user, held.ids[0]!, 'Paid in cash at the door')).statusCode).toBe(200);
    expect((await vaultNow(held.ids[0]!)).field_id).toBeNull();
    expect((await step(user, held.ids[1]!, 'Same customer, same visit')).statusCode).toBe(200);

    // releasing the list: refused to Floor, and to a Manager without a reason; nothing leaves
    const release = (who: SignedIn, payload?: object) =>
      post(who, `/api/pull-lists/${list.id}/release`, payload);
    expect((await release(floor)).statusCode).toBe(403);
    expect((await release(user)).statusCode).toBe(409);
    expect((await vaultNow(held.ids[0]!)).released_at).toBeNull();
    const released = await release(user, { override_reason: 'Balance settled by phone' });
    expect(released.statusCode).toBe(200);
    expect((await vaultNow(held.ids[0]!)).released_at).not.toBeNull();

    const history = (await get(user, `/api/vaults/${held.ids[0]}/history`)).json() as ActivityItemDto[];
    const overrides = history.filter((h) => h.kind === 'vault.hold-override');
    expect(overrides.map((h) => (h.details as { reason: string }).reason).sort()).toEqual([
      'Balance settled by phone',
      'Paid in cash at the door',
    ]);
    const accountNow = (await get(user, `/api/storage-accounts/${account.id}`)).json() as AccountDto;
    const kept = accountNow.history.filter((h) => h.kind === 'hold-override').map((h) => h.detail);
    expect(kept).toHaveLength(4);
    expect(kept.some((d) => d.includes('HOLD-2-1 pulled. Reason: Paid in cash at the door'))).toBe(true);
    expect(kept.some((d) => d.includes('HOLD-2-2 released. Reason: Balance settled by phone'))).toBe(true);
  });

  it('badges a held pallet, deletes it only with a Manager reason, and keeps a rack or warehouse with held units', async () => {
    const floor = await as('floor');
    const held = await storedOrder('PALMER', 'HOLD-P', 1);
    const rack = await buildRack(db(), {
      companyId: user.companyId,
      warehouseId: held.warehouseId,
      shelves: 1,
    });
    const palletOf = (slotIndex: number, order?: string) =>
      buildPallet(db(), {
        companyId: user.companyId,
        shelfId: rack.shelfIds[0]!,
        customer: 'PALMER',
        slotIndex,
        palletNumber: `P-${slotIndex}`,
        ...(order ? { order } : {}),
      });
    const [heldPallet, loosePallet] = [await palletOf(0, 'HOLD-P'), await palletOf(1)];
    const account = (
      await post(user, '/api/storage-accounts', { order_ids: [held.orderId], kind: 'permanent' })
    ).json() as AccountDto;
    await db().updateTable('storage_accounts').set({ on_hold: 1 }).where('id', '=', account.id).execute();

    // the badge names the pallet of the held order only, for every member and no other company
    const holds = (await get(floor, '/api/holds')).json() as HoldsDto;
    expect(holds.pallet_ids).toEqual([heldPallet]);
    expect(((await get(other, '/api/holds')).json() as HoldsDto).pallet_ids).toEqual([]);

    // the pallet leaves only with a Manager's reason; a pallet of no account is deleted as before
    const remove = (who: SignedIn, id: number, reason?: string) =>
      who.request({
        method: 'DELETE',
        url: `/api/pallets/${id}/delete${reason === undefined ? '' : `?override_reason=${encodeURIComponent(reason)}`}`,
      });
    const refused = await remove(floor, heldPallet, 'customer is here');
    expect(refused.statusCode).toBe(403);
    expect(errorsOf(refused)).toBe(HELD_NEEDS_MANAGER);
    const noReason = await remove(user, heldPallet);
    expect(noReason.statusCode).toBe(409);
    expect(errorsOf(noReason)).toBe(HELD_NEEDS_REASON);
    expect((await remove(user, heldPallet, '  ')).statusCode).toBe(409);

    // neither the rack nor the warehouse goes while they hold units on hold
    const rackGone = await user.request({
      method: 'DELETE',
      url: `/api/racks/${held.warehouseId}/rack/${rack.id}/delete`,
    });
    expect(rackGone.statusCode).toBe(409);
    expect(errorsOf(rackGone)).toBe(HELD_ON_RACK);
    const warehouseGone = await user.request({ method: 'DELETE', url: `/api/warehouse/${held.warehouseId}` });
    expect(warehouseGone.statusCode).toBe(409);
    expect(errorsOf(warehouseGone)).toBe(HELD_IN_WAREHOUSE);
    const pallets = () =>
      db()
        .selectFrom('pallets')
        .select('id')
        .where('shelf_id', '=', rack.shelfIds[0]!)
        .orderBy('id')
        .execute();
    expect((await pallets()).map((p) => p.id)).toEqual([heldPallet, loosePallet]);

    expect((await remove(floor, loosePallet)).statusCode).toBe(200);
    expect((await remove(user, heldPallet, 'Collected after paying at the office')).statusCode).toBe(200);
    expect(await pallets()).toEqual([]);
    expect(((await get(floor, '/api/holds')).json() as HoldsDto).pallet_ids).toEqual([]);
    const accountNow = (await get(user, `/api/storage-accounts/${account.id}`)).json() as AccountDto;
    expect(accountNow.history.map((h) => h.detail)).toContain(
      'Hold overridden: pallet P-0 released. Reason: Collected after paying at the office',
    );
    const events = await db()
      .selectFrom('events')
      .select(['kind', 'payload'])
      .where('company_id', '=', user.companyId)
      .where('kind', '=', 'pallet.hold-override')
      .execute();
    expect(events).toHaveLength(1);
    expect(String(events[0]!.payload)).toContain('Collected after paying at the office');

    // the held vault still keeps its warehouse: lifted, the warehouse may go
    const stillHeld = await user.request({ method: 'DELETE', url: `/api/warehouse/${held.warehouseId}` });
    expect(stillHeld.statusCode).toBe(409);
    await user.request({ method: 'DELETE', url: `/api/storage-accounts/${account.id}/hold` });
    expect(
      (await user.request({ method: 'DELETE', url: `/api/warehouse/${held.warehouseId}` })).statusCode,
    ).toBe(200);
  });

  it('lets a unit of an account not on hold be pulled by Floor without any reason', async () => {
    const floor = await as('floor');
    const free = await storedOrder('FREDA', 'FREE-1', 1);
    await post(user, '/api/storage-accounts', { order_ids: [free.orderId], kind: 'permanent' });
    const list = (await post(floor, '/api/pull-lists', { order_name: 'FREE-1' })).json() as PullListDto;
    const res = await post(floor, `/api/pull-lists/${list.id}/steps`, {
      vault_id: free.ids[0],
      action: 'pulled',
    });
    expect(res.statusCode).toBe(200);
    expect((await post(floor, `/api/pull-lists/${list.id}/release`)).statusCode).toBe(200);
  });
});
