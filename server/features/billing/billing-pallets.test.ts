import { beforeEach, describe, expect, it } from 'vitest';
import type {
  AccountDto,
  BillingRunDto,
  BillingSettingsDto,
  HoldsDto,
  InvoiceDto,
  NotBilledOrderDto,
} from '@domain/schemas/billing.schema';
import type { PalletDto } from '@domain/schemas/rack.schema';
import { buildRack, buildStagedVault, buildVault, buildWarehouse } from '../../factories';
import { type SignedIn, signIn, testEngines } from '../../test/test-app';
import { useTestApp } from '../../test/use-test-app';
import { runBillingDay } from './billing-day';

// Issue 28 (decision 051): pallets are billed on their order's account like vaults; the billing day's run issues
// invoices by itself, once, however often and from however many processes it runs; a held unit on the stage
// carries the badge and cannot be deleted around the hold.

describe.each(testEngines())('pallets billed, the billing day and holds on the stage on %s', (engine) => {
  const { ctx, other } = useTestApp(engine);
  const db = () => ctx.database.db;
  const post = (who: SignedIn, url: string, payload?: object) =>
    who.request({ method: 'POST', url, ...(payload ? { payload } : {}) });
  const get = (who: SignedIn, url: string) => who.request({ method: 'GET', url });
  // each test has a company of its own (invoice numbers and accounts start afresh)
  let user: SignedIn;
  beforeEach(async () => {
    user = await signIn(ctx);
  });
  const rate = (kind: string, unitType: string, amount: number) =>
    post(user, '/api/billing/rates', { kind, unit_type: unitType, amount, effective_from: '2025-01-01' });

  /** A rack of one shelf of 6 spots in a new warehouse. */
  async function shelf() {
    const wh = await buildWarehouse(db(), { companyId: user.companyId, rows: 2, cols: 2, fieldCapacity: 3 });
    const rack = await buildRack(db(), {
      companyId: user.companyId,
      warehouseId: wh.id,
      shelves: 1,
      capacity: 6,
    });
    return { warehouseId: wh.id, shelfId: rack.shelfIds[0]! };
  }

  async function addPallet(shelfId: number, order: string | undefined, movedIn: string, number: string) {
    const res = await post(user, '/api/racks/pallets', {
      shelf_id: shelfId,
      customer_name: 'PALMER',
      pallet_number: number,
      ...(order ? { order_name: order } : {}),
      weight: 100,
    });
    expect(res.statusCode, res.body).toBe(201);
    const pallet = res.json() as PalletDto;
    await db()
      .updateTable('pallets')
      .set({ created_at: `${movedIn}T10:00:00.000Z` })
      .where('id', '=', pallet.id)
      .execute();
    return pallet;
  }

  const notBilled = async () =>
    (await get(user, '/api/storage-accounts/not-billed')).json() as NotBilledOrderDto[];

  it('bills the pallets of an order pro-rated by day, with handling in and out, also once a pallet is gone', async () => {
    const { shelfId } = await shelf();
    const staying = await addPallet(shelfId, 'PAL-ORDER', '2026-03-11', 'P-1');
    expect(staying.orderName).toBe('PAL-ORDER');
    const leaving = await addPallet(shelfId, 'PAL-ORDER', '2026-03-05', 'P-2');
    // a pallet without an order is not billed and not listed
    await addPallet(shelfId, undefined, '2026-03-01', 'P-3');

    const listed = (await notBilled()).find((o) => o.order_name === 'PAL-ORDER');
    expect(listed).toMatchObject({ customer_name: 'PALMER', units: 2, move_in: '2026-03-05' });
    expect(
      (await notBilled()).some((o) => o.customer_name === 'PALMER' && o.order_name !== 'PAL-ORDER'),
    ).toBe(false);
    // the order's edit keeps it; the pallet's answer names its order
    const edited = await user.request({
      method: 'PUT',
      url: `/api/racks/pallets/${staying.id}/edit`,
      payload: { customer_name: 'PALMER', pallet_number: 'P-1', order_name: 'PAL-ORDER', weight: 120 },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect((edited.json() as PalletDto).orderName).toBe('PAL-ORDER');

    // the leaving pallet goes: its departure keeps what billing needs, dated back into March for the test
    const gone = await user.request({ method: 'DELETE', url: `/api/pallets/${leaving.id}/delete` });
    expect(gone.statusCode, gone.body).toBe(200);
    const departures = await db()
      .selectFrom('pallet_departures')
      .selectAll()
      .where('company_id', '=', user.companyId)
      .execute();
    expect(departures).toEqual([
      expect.objectContaining({
        pallet_id: leaving.id,
        label: 'P-2',
        moved_in_at: '2026-03-05T10:00:00.000Z',
      }),
    ]);
    await db()
      .updateTable('pallet_departures')
      .set({ moved_out_at: '2026-03-21T15:00:00.000Z' })
      .where('company_id', '=', user.companyId)
      .execute();

    const created = await post(user, '/api/storage-accounts', {
      order_ids: [listed!.order_id],
      kind: 'permanent',
    });
    expect(created.statusCode, created.body).toBe(201);
    const account = created.json() as AccountDto;
    expect(account).toMatchObject({ units: 1, move_in: '2026-03-05', move_out: null, orders: ['PAL-ORDER'] });
    expect((await notBilled()).some((o) => o.order_name === 'PAL-ORDER')).toBe(false);

    // without a pallet rate the account shows a problem and is not issued
    const unrated = (
      await post(user, '/api/billing/runs/dry-run', { period: '2026-03' })
    ).json() as BillingRunDto;
    expect(unrated.invoices.find((i) => i.account_id === account.id)!.problems[0]).toMatch(
      /Pallet spot P-1 has no storage rate/,
    );

    for (const [kind, amount] of [
      ['storage', 3_000],
      ['handling-in', 500],
      ['handling-out', 700],
    ] as const)
      expect((await rate(kind, 'pallet', amount)).statusCode).toBe(201);
    const dry = (
      await post(user, '/api/billing/runs/dry-run', { period: '2026-03' })
    ).json() as BillingRunDto;
    const draft = dry.invoices.find((i) => i.account_id === account.id)!;
    expect(draft.problems).toEqual([]);
    // March has 31 days; a line for the days [a, b) is round(R*b/31) - round(R*a/31)
    const c = (k: number) => Math.round((3_000 * k) / 31);
    expect(draft.lines.map((l) => [l.kind, l.from, l.to, l.amount])).toEqual([
      ['storage', '2026-03-11', '2026-03-31', c(31) - c(10)],
      ['handling-in', '2026-03-11', '2026-03-11', 500],
      ['storage', '2026-03-05', '2026-03-20', c(20) - c(4)],
      ['handling-in', '2026-03-05', '2026-03-05', 500],
      ['handling-out', '2026-03-21', '2026-03-21', 700],
    ]);
    expect(draft.lines[0]!.description).toContain('Pallet spot P-1');
    expect(draft.total).toBe(c(31) - c(10) + c(20) - c(4) + 500 + 500 + 700);

    const run = (await post(user, '/api/billing/runs', { period: '2026-03' })).json() as BillingRunDto;
    const issued = run.issued.find((i) => i.account_id === account.id)!;
    expect(issued.total).toBe(draft.total);
    const lines = await db()
      .selectFrom('invoice_lines')
      .select(['unit_id', 'pallet_id', 'amount'])
      .where('invoice_id', '=', issued.id)
      .orderBy('position')
      .execute();
    expect(lines.map((l) => [l.unit_id, l.pallet_id])).toEqual([
      [null, staying.id],
      [null, staying.id],
      [null, leaving.id],
      [null, leaving.id],
      [null, leaving.id],
    ]);
    // April: the pallet still stored, a whole month; the gone one nothing
    const april = (
      await post(user, '/api/billing/runs/dry-run', { period: '2026-04' })
    ).json() as BillingRunDto;
    expect(april.invoices.find((i) => i.account_id === account.id)!.lines.map((l) => l.amount)).toEqual([
      3_000,
    ]);
    // another company sees none of it
    expect(((await get(other, '/api/storage-accounts/not-billed')).json() as unknown[]).length).toBe(0);
  });

  it('runs billing by itself on the billing day once, for the companies that turned it on, numbered without gaps', async () => {
    const wh = await buildWarehouse(db(), { companyId: user.companyId, rows: 2, cols: 2, fieldCapacity: 3 });
    const { shelfId } = await shelf();
    for (const [order, field] of [
      ['AUTO-1', 'A1'],
      ['AUTO-2', 'A2'],
    ] as const)
      await buildVault(db(), {
        companyId: user.companyId,
        fieldId: wh.field(field).id,
        customerName: `CUSTOMER ${order}`,
        orderName: order,
      });
    await db().updateTable('vaults').set({ created_at: '2026-03-11T09:00:00.000Z' }).execute();
    await addPallet(shelfId, 'AUTO-3', '2026-03-11', 'AP-1');
    const orders = await notBilled();
    expect(orders.map((o) => o.order_name)).toEqual(['AUTO-1', 'AUTO-2', 'AUTO-3']);
    const ids: number[] = [];
    for (const [i, o] of orders.entries()) {
      const res = await post(user, '/api/storage-accounts', {
        order_ids: [o.order_id],
        kind: 'permanent',
        // the second account is billed every 30 days from its move-in: March 11, April 10, ...
        billing_cycle: i === 1 ? 'thirty-days' : 'calendar',
      });
      expect(res.statusCode, res.body).toBe(201);
      ids.push((res.json() as AccountDto).id);
    }
    expect((await rate('storage', 'vault', 9_000)).statusCode).toBe(201);
    expect((await rate('storage', 'pallet', 3_000)).statusCode).toBe(201);
    // March was billed by hand
    expect(
      ((await post(user, '/api/billing/runs', { period: '2026-03' })).json() as BillingRunDto).issued,
    ).toHaveLength(3);

    // automatic billing is off by default: the billing day issues nothing
    expect(((await get(user, '/api/billing/settings')).json() as BillingSettingsDto).auto_billing).toBe(
      false,
    );
    expect(
      (await runBillingDay(db(), '2026-04-01')).find((r) => r.companyId === user.companyId),
    ).toBeUndefined();

    const settings = (await get(user, '/api/billing/settings')).json() as BillingSettingsDto;
    const on = await user.request({
      method: 'PUT',
      url: '/api/billing/settings',
      payload: { ...settings, auto_billing: true },
    });
    expect(on.statusCode, on.body).toBe(200);
    expect((on.json() as BillingSettingsDto).auto_billing).toBe(true);
    // a save that does not name it leaves it on
    const { auto_billing: _left, ...withoutIt } = settings;
    const kept = await user.request({ method: 'PUT', url: '/api/billing/settings', payload: withoutIt });
    expect((kept.json() as BillingSettingsDto).auto_billing).toBe(true);
    const bad = await user.request({
      method: 'PUT',
      url: '/api/billing/settings',
      payload: { ...settings, auto_billing: 'sometimes' },
    });
    expect(bad.statusCode).toBe(400);

    // April 1st, twice at once and once more (two servers, a retry): the calendar accounts once each; the 30-day
    // account's period begins on April 10, not yet
    const ofUser = (results: Awaited<ReturnType<typeof runBillingDay>>) =>
      results.filter((r) => r.companyId === user.companyId);
    const first = await Promise.all([runBillingDay(db(), '2026-04-01'), runBillingDay(db(), '2026-04-01')]);
    const again = await runBillingDay(db(), '2026-04-01');
    const numbers = [...first.flatMap(ofUser), ...ofUser(again)].flatMap((r) => r.issued);
    expect(numbers.sort((a, b) => a - b)).toEqual([4, 5]);
    expect(ofUser(again)[0]!.error).toBeUndefined();

    // April 10th: the 30-day account's invoice, numbered next
    const tenth = ofUser(
      await Promise.all([runBillingDay(db(), '2026-04-10'), runBillingDay(db(), '2026-04-10')]).then((r) =>
        r.flat(),
      ),
    );
    expect(tenth.flatMap((r) => r.issued)).toEqual([6]);

    const invoices = (await get(user, '/api/invoices')).json() as InvoiceDto[];
    expect(invoices.map((i) => i.number).sort((a, b) => a! - b!)).toEqual([1, 2, 3, 4, 5, 6]);
    const april = invoices.filter((i) => i.number! >= 4);
    expect(april.map((i) => [i.account_id, i.period_start, i.issue_date]).sort()).toEqual(
      [
        [ids[0], '2026-04-01', '2026-04-01'],
        [ids[2], '2026-04-01', '2026-04-01'],
        [ids[1], '2026-04-10', '2026-04-10'],
      ].sort(),
    );
    expect(april.find((i) => i.account_id === ids[2])!.total).toBe(3_000);
    // the other company (automatic billing off) got nothing
    expect(((await get(other, '/api/invoices')).json() as unknown[]).length).toBe(0);
  });

  it('badges a held vault on the stage and refuses its delete, which a vault not held still allows', async () => {
    const staged = await buildStagedVault(db(), {
      companyId: user.companyId,
      customerName: 'STELLA',
      orderName: 'STAGE-HOLD',
    });
    const free = await buildStagedVault(db(), {
      companyId: user.companyId,
      customerName: 'FREDA',
      orderName: 'STAGE-FREE',
    });
    const order = (await notBilled()).find((o) => o.order_name === 'STAGE-HOLD')!;
    const account = (
      await post(user, '/api/storage-accounts', { order_ids: [order.order_id], kind: 'permanent' })
    ).json() as AccountDto;
    // the hold's own rules (overdue days, roles) are tested with the holds; here the account simply is on hold
    await db().updateTable('storage_accounts').set({ on_hold: 1 }).where('id', '=', account.id).execute();

    const stage = Object.keys((await get(user, '/api/stage/vaults')).json() as object).map(Number);
    expect(stage).toEqual(expect.arrayContaining([staged.id, free.id]));
    expect(((await get(user, '/api/holds')).json() as HoldsDto).vault_ids).toEqual([staged.id]);

    const refused = await user.request({ method: 'DELETE', url: `/api/vaults/${staged.id}` });
    expect(refused.statusCode).toBe(409);
    expect((refused.json() as { errors: string[] }).errors[0]).toMatch(/on hold/);
    expect(
      Object.keys((await get(user, '/api/stage/vaults')).json() as object).includes(String(staged.id)),
    ).toBe(true);
    expect((await user.request({ method: 'DELETE', url: `/api/vaults/${free.id}` })).statusCode).toBe(200);
  });
});
