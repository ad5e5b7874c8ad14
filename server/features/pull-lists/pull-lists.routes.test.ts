import { beforeAll, describe, expect, it } from 'vitest';
import type { PullListDto, ReleasedVaultDto } from '@domain/schemas/pull-list.schema';
import type { VaultDto } from '@domain/schemas/warehouse.schema';
import { type SignedIn, signIn, testEngines } from '../../test/test-app';
import { useTestApp } from '../../test/use-test-app';
import { buildVault, buildWarehouse } from '../../factories';
import { notNextFree } from '../vaults/vaults.service';
import {
  ALREADY_PULLED,
  LIST_RELEASED,
  NOTHING_TO_PULL,
  PULL_LIST_NOT_FOUND,
  NOT_IN_THE_WAY,
  putBackFirst,
  stillInFields,
  stillSetAside,
} from './pull-lists.service';

describe.each(testEngines())('pull lists on %s', (engine) => {
  const { ctx, user, other } = useTestApp(engine);
  let colleague: SignedIn;
  beforeAll(async () => {
    colleague = await signIn(ctx, { ...user, email: user.email, password: user.password });
  });

  const db = () => ctx.database.db;
  let counter = 0;
  let userName = '';
  beforeAll(async () => {
    const row = await db()
      .selectFrom('users')
      .select('username')
      .where('id', '=', user.userId)
      .executeTakeFirstOrThrow();
    userName = row.username;
  });

  /**
   * Field A1: ORDER vault at the bottom under two others; B1: an ORDER vault on top of another customer's vault;
   * A2: one blocker over an ORDER vault.
   */
  async function scene() {
    counter += 1;
    const order = `PULL-${engine}-${counter}`;
    const wh = await buildWarehouse(db(), { companyId: user.companyId, rows: 2, cols: 2, fieldCapacity: 3 });
    const put = (field: string, mine: boolean) =>
      buildVault(db(), {
        companyId: user.companyId,
        fieldId: wh.field(field).id,
        ...(mine ? { orderName: order, customerName: `OWNER ${counter}` } : {}),
      });
    const deep = await put('A1', true);
    const blockerLow = await put('A1', false);
    const blockerTop = await put('A1', false);
    const under = await put('B1', false);
    const onTop = await put('B1', true);
    const mid = await put('A2', true);
    const blockerA2 = await put('A2', false);
    return { order, wh, deep, blockerLow, blockerTop, under, onTop, mid, blockerA2 };
  }
  type Scene = Awaited<ReturnType<typeof scene>>;
  /** The scene's order taken out by its plan: each vault in the way set aside, each of the order's pulled. */
  const planSteps = (s: Scene) =>
    [
      [s.blockerTop, 'set-aside'],
      [s.blockerLow, 'set-aside'],
      [s.deep, 'pulled'],
      [s.blockerA2, 'set-aside'],
      [s.mid, 'pulled'],
      [s.onTop, 'pulled'],
    ] as const;

  const create = async (as: SignedIn, payload: Record<string, unknown>) =>
    as.request({ method: 'POST', url: '/api/pull-lists', payload });
  const step = (as: SignedIn, listId: number, vault: VaultDto | number, action: string, extra = {}) =>
    as.request({
      method: 'POST',
      url: `/api/pull-lists/${listId}/steps`,
      payload: { vault_id: typeof vault === 'number' ? vault : vault.id, action, ...extra },
    });
  const vaultNow = (id: number) =>
    db()
      .selectFrom('vaults')
      .select(['field_id', 'position', 'released_at', 'released_by'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();

  it('makes a list of an order with dig-out counts and the least-handling plan in walking order', async () => {
    const s = await scene();
    const res = await create(user, { order_name: s.order });
    expect(res.statusCode).toBe(201);
    const list = res.json() as PullListDto;
    expect(list.title).toBe(`Order ${s.order}`);
    expect(list.vaults.map((v) => [v.id, v.field_name, v.position, v.dig_out, v.state])).toEqual([
      [s.deep.id, 'A1', 3, 2, 'in-field'],
      [s.onTop.id, 'B1', 2, 0, 'in-field'],
      [s.mid.id, 'A2', 3, 1, 'in-field'],
    ]);
    expect(list.plan.map((f) => f.field_name)).toEqual(['A1', 'A2', 'B1']);
    expect(list.plan[0]!.steps.map((st) => [st.vault_id, st.role])).toEqual([
      [s.blockerTop.id, 'in-the-way'],
      [s.blockerLow.id, 'in-the-way'],
      [s.deep.id, 'pull'],
    ]);
    // B1: the order's vault is on top, the other customer's below it stays
    expect(list.plan[2]!.steps.map((st) => st.vault_id)).toEqual([s.onTop.id]);
    // 6 vaults off, and the 3 only in the way back again
    expect(list.handlings).toBe(9);
    expect(list.in_the_way).toBe(3);

    const read = await user.request({ method: 'GET', url: `/api/pull-lists/${list.id}` });
    expect(read.json()).toEqual(list);
    const all = (await user.request({ method: 'GET', url: '/api/pull-lists' })).json() as { id: number }[];
    expect(all.map((l) => l.id)).toContain(list.id);
  });

  it('refuses an order nobody has, and a body naming both or neither', async () => {
    const none = await create(user, { order_name: 'NO-SUCH-ORDER' });
    expect(none.statusCode).toBe(400);
    expect(none.json()).toEqual({ errors: [NOTHING_TO_PULL] });
    expect((await create(user, {})).statusCode).toBe(400);
    expect((await create(user, { order_name: 'X', customer_name: 'Y' })).statusCode).toBe(400);
  });

  it('works the plan: set aside, pull, put back to the original fields, then release the order', async () => {
    const s = await scene();
    const list = (await create(user, { order_name: s.order })).json() as PullListDto;
    // the deep one cannot come out before the vaults above it
    expect((await step(user, list.id, s.deep, 'pulled')).statusCode).toBe(400);
    // a vault below the order's vaults is not in the way
    expect((await step(user, list.id, s.under, 'set-aside')).json()).toEqual({ errors: [NOT_IN_THE_WAY] });

    for (const [vault, action] of planSteps(s)) {
      const res = await step(user, list.id, vault, action);
      expect(res.statusCode, `${action} ${vault.id}: ${res.body}`).toBe(200);
    }
    let now = (
      await user.request({ method: 'GET', url: `/api/pull-lists/${list.id}` })
    ).json() as PullListDto;
    expect(now.plan).toEqual([]);
    expect(now.vaults.every((v) => v.state === 'on-stage')).toBe(true);
    // shown last off, first back: the field worked last first, and per field from the lowest slot up
    expect(now.set_aside.map((v) => [v.vault_id, v.state, v.from_field_name])).toEqual([
      [s.blockerA2.id, 'set-aside', 'A2'],
      [s.blockerLow.id, 'set-aside', 'A1'],
      [s.blockerTop.id, 'set-aside', 'A1'],
    ]);
    expect(now.handlings).toBe(3);

    const early = await user.request({ method: 'POST', url: `/api/pull-lists/${list.id}/release` });
    expect(early.statusCode).toBe(409);
    expect(early.json()).toEqual({ errors: [stillSetAside(3)] });

    // the top one first would put it under the one that stood below it: refused, nothing changes
    const reversed = await step(user, list.id, s.blockerTop, 'put-back');
    expect(reversed.statusCode).toBe(409);
    expect(reversed.json()).toEqual({
      errors: [putBackFirst(s.blockerLow.name!, s.blockerTop.name!, 'A1')],
    });

    // last off, first back: the stack keeps its order and drops to the bottom
    expect((await step(user, list.id, s.blockerLow, 'put-back')).statusCode).toBe(200);
    expect((await step(user, list.id, s.blockerTop, 'put-back')).statusCode).toBe(200);
    // the user may choose another field for one
    expect(
      (await step(user, list.id, s.blockerA2, 'put-back', { field_id: s.wh.field('B2').id })).statusCode,
    ).toBe(200);
    expect(await vaultNow(s.blockerLow.id)).toMatchObject({ field_id: s.wh.field('A1').id, position: 3 });
    expect(await vaultNow(s.blockerTop.id)).toMatchObject({ field_id: s.wh.field('A1').id, position: 2 });
    expect(await vaultNow(s.blockerA2.id)).toMatchObject({ field_id: s.wh.field('B2').id, position: 3 });

    const released = await user.request({ method: 'POST', url: `/api/pull-lists/${list.id}/release` });
    expect(released.statusCode).toBe(200);
    now = released.json() as PullListDto;
    expect(now.released_at).not.toBeNull();
    expect(now.vaults.every((v) => v.state === 'released' && v.released_by === userName)).toBe(true);
    expect(await vaultNow(s.deep.id)).toMatchObject({ field_id: null, released_by: userName });

    // gone from the stage, kept as a vault with its history
    const stage = (await user.request({ method: 'GET', url: '/api/stage/vaults' })).json() as Record<
      string,
      unknown
    >;
    expect(Object.keys(stage)).not.toContain(String(s.deep.id));
    const print = (await user.request({ method: 'GET', url: '/api/vaults/all' })).json() as { id: number }[];
    expect(print.map((v) => v.id)).not.toContain(s.deep.id);
    expect(print.map((v) => v.id)).toContain(s.blockerLow.id);
    const vault = (await user.request({ method: 'GET', url: `/api/vaults/${s.deep.id}` })).json() as VaultDto;
    expect(vault.released_by).toBe(userName);
    const events = await db()
      .selectFrom('events')
      .select('kind')
      .where('entity_type', '=', 'vault')
      .where('entity_id', '=', s.deep.id)
      .orderBy('id')
      .execute();
    expect(events.map((e) => e.kind)).toEqual(['vault.added', 'vault.staged', 'vault.released']);
    // a released vault cannot be moved back in
    const move = await user.request({
      method: 'PUT',
      url: '/api/vaults/move',
      payload: { vaultId: s.deep.id, fieldId: s.wh.field('B2').id, position: 2 },
    });
    expect(move.statusCode).toBe(400);
    expect(
      (await user.request({ method: 'POST', url: `/api/pull-lists/${list.id}/release` })).statusCode,
    ).toBe(409);
  });

  it('puts a blocker back into a free slot the user picks, checked with the slot rules', async () => {
    const s = await scene();
    const elsewhere = await buildWarehouse(db(), { companyId: other.companyId, rows: 1, cols: 1 });
    const list = (await create(user, { order_name: s.order })).json() as PullListDto;
    expect((await step(user, list.id, s.blockerA2, 'set-aside')).statusCode).toBe(200);
    const listed = (
      await user.request({ method: 'GET', url: `/api/pull-lists/${list.id}` })
    ).json() as PullListDto;
    expect(listed.set_aside).toMatchObject([
      { vault_id: s.blockerA2.id, type: 'vault', from_warehouse_id: s.wh.id, from_field_name: 'A2' },
    ]);
    const stillWaiting = async () =>
      (
        (await user.request({ method: 'GET', url: `/api/pull-lists/${list.id}` })).json() as PullListDto
      ).set_aside.map((v) => v.state);

    // B2 is empty: its next free slot is the bottom one, 3; slot 2 would leave a hole under it
    const hole = await step(user, list.id, s.blockerA2, 'put-back', {
      field_id: s.wh.field('B2').id,
      position: 2,
    });
    expect(hole.statusCode).toBe(400);
    expect(hole.json()).toEqual({ errors: [notNextFree(2, 'B2', 3)] });
    // another company's field does not exist here
    const foreign = await step(user, list.id, s.blockerA2, 'put-back', {
      field_id: elsewhere.field('A1').id,
      position: 3,
    });
    expect(foreign.statusCode).toBe(404);
    // a field or position belongs to a put-back only; a position needs its field
    expect((await step(user, list.id, s.onTop, 'pulled', { field_id: s.wh.field('B2').id })).statusCode).toBe(
      400,
    );
    expect((await step(user, list.id, s.blockerA2, 'put-back', { position: 3 })).statusCode).toBe(400);
    expect(await stillWaiting()).toEqual(['set-aside']);
    expect(await vaultNow(s.blockerA2.id)).toMatchObject({ field_id: null });

    const picked = await step(user, list.id, s.blockerA2, 'put-back', {
      field_id: s.wh.field('B2').id,
      position: 3,
    });
    expect(picked.statusCode).toBe(200);
    expect((picked.json() as PullListDto).set_aside.map((v) => v.state)).toEqual(['put-back']);
    expect(await vaultNow(s.blockerA2.id)).toMatchObject({ field_id: s.wh.field('B2').id, position: 3 });
  });

  it('finds released vaults by number, customer or order, with when and by whom, for their company only', async () => {
    const s = await scene();
    const list = (await create(user, { order_name: s.order })).json() as PullListDto;
    for (const [vault, action] of [
      ...planSteps(s),
      [s.blockerLow, 'put-back'],
      [s.blockerTop, 'put-back'],
      [s.blockerA2, 'put-back'],
    ] as const)
      expect((await step(user, list.id, vault, action)).statusCode).toBe(200);
    const released = (
      await user.request({ method: 'POST', url: `/api/pull-lists/${list.id}/release` })
    ).json() as PullListDto;
    const search = (as: SignedIn, q: string) =>
      as.request({ method: 'GET', url: `/api/released-vaults?q=${encodeURIComponent(q)}` });
    const deep = released.vaults.find((v) => v.id === s.deep.id)!;
    expect(deep.name).toBeTruthy();

    // by a piece of its number, in any case
    const byNumber = await search(user, deep.name!.slice(1).toLowerCase());
    expect(byNumber.statusCode).toBe(200);
    expect(byNumber.json()).toContainEqual({
      id: s.deep.id,
      name: deep.name,
      customer_name: deep.customer_name,
      order_name: s.order,
      released_at: released.released_at,
      released_by: userName,
    });
    // by its order: the three vaults of the list, and not the blockers that stayed
    const byOrder = (await search(user, s.order)).json() as ReleasedVaultDto[];
    expect(byOrder.map((v) => v.id).sort()).toEqual([s.deep.id, s.mid.id, s.onTop.id].sort());
    const byCustomer = (await search(user, `owner ${counter}`)).json() as ReleasedVaultDto[];
    expect(byCustomer.map((v) => v.id)).toContain(s.onTop.id);
    // a wildcard is a plain character, a blank search is refused, another company finds nothing of it
    expect((await search(user, '%')).json()).toEqual([]);
    expect((await search(user, '  ')).statusCode).toBe(400);
    expect((await search(other, s.order)).json()).toEqual([]);
  });

  it('refuses to release while vaults of the list are still in fields, and changes nothing', async () => {
    const s = await scene();
    const list = (await create(user, { order_name: s.order })).json() as PullListDto;
    expect((await step(user, list.id, s.onTop, 'pulled')).statusCode).toBe(200);
    const res = await user.request({ method: 'POST', url: `/api/pull-lists/${list.id}/release` });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ errors: [stillInFields(2)] });
    expect(await vaultNow(s.onTop.id)).toMatchObject({ field_id: null, released_at: null });
    const again = (
      await user.request({ method: 'GET', url: `/api/pull-lists/${list.id}` })
    ).json() as PullListDto;
    expect(again.released_at).toBeNull();
  });

  it('lets two staff work one list at once: different steps both land, the same step once', async () => {
    const s = await scene();
    const list = (await create(user, { order_name: s.order })).json() as PullListDto;
    // different fields side by side
    const [a, b] = await Promise.all([
      step(user, list.id, s.onTop, 'pulled'),
      step(colleague, list.id, s.blockerA2, 'set-aside'),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    // the same vault by both at once: one wins, the other is told, nothing is done twice
    const both = await Promise.all([
      step(user, list.id, s.mid, 'pulled'),
      step(colleague, list.id, s.mid, 'pulled'),
    ]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(both.find((r) => r.statusCode === 409)!.json()).toEqual({ errors: [ALREADY_PULLED] });
    const setAsideTwice = await Promise.all([
      step(user, list.id, s.blockerTop, 'set-aside'),
      step(colleague, list.id, s.blockerTop, 'set-aside'),
    ]);
    expect(setAsideTwice.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const putBackTwice = await Promise.all([
      step(user, list.id, s.blockerA2, 'put-back'),
      step(colleague, list.id, s.blockerA2, 'put-back'),
    ]);
    expect(putBackTwice.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const now = (
      await colleague.request({ method: 'GET', url: `/api/pull-lists/${list.id}` })
    ).json() as PullListDto;
    expect(
      now.vaults
        .filter((v) => v.state === 'on-stage')
        .map((v) => v.id)
        .sort(),
    ).toEqual([s.onTop.id, s.mid.id].sort());
    expect(await vaultNow(s.blockerA2.id)).toMatchObject({ field_id: s.wh.field('A2').id, position: 3 });
    // every stack is still valid: positions unique per field and filled from the bottom
    const rows = await db()
      .selectFrom('vaults')
      .select(['field_id', 'position'])
      .where(
        'field_id',
        'in',
        s.wh.fields.map((f) => f.id),
      )
      .execute();
    const byField = new Map<number, number[]>();
    for (const r of rows) byField.set(r.field_id!, [...(byField.get(r.field_id!) ?? []), r.position!]);
    for (const positions of byField.values()) {
      positions.sort((x, y) => y - x);
      positions.forEach((p, i) => expect(p).toBe(3 - i));
    }
  });

  it('cancels a list once nothing it set aside waits, keeps what it pulled on the stage, never a released one', async () => {
    const s = await scene();
    const list = (await create(user, { order_name: s.order })).json() as PullListDto;
    const cancel = (as: SignedIn, id: number) =>
      as.request({ method: 'DELETE', url: `/api/pull-lists/${id}` });
    expect((await step(user, list.id, s.onTop, 'pulled')).statusCode).toBe(200);
    expect((await step(user, list.id, s.blockerA2, 'set-aside')).statusCode).toBe(200);

    // another company cannot see it, let alone cancel it
    const foreign = await cancel(other, list.id);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual({ errors: [PULL_LIST_NOT_FOUND] });
    // a vault set aside still waits on the stage: put it back first
    const waiting = await cancel(user, list.id);
    expect(waiting.statusCode).toBe(409);
    expect(waiting.json()).toEqual({ errors: [stillSetAside(1)] });
    expect((await user.request({ method: 'GET', url: `/api/pull-lists/${list.id}` })).statusCode).toBe(200);

    expect((await step(user, list.id, s.blockerA2, 'put-back')).statusCode).toBe(200);
    expect((await cancel(user, list.id)).statusCode).toBe(204);
    expect((await user.request({ method: 'GET', url: `/api/pull-lists/${list.id}` })).statusCode).toBe(404);
    expect((await cancel(user, list.id)).statusCode).toBe(404);
    // what it pulled stays on the stage, the blocker stands where it was
    expect(await vaultNow(s.onTop.id)).toMatchObject({ field_id: null, released_at: null });
    expect(await vaultNow(s.blockerA2.id)).toMatchObject({ field_id: s.wh.field('A2').id, position: 2 });
    const events = await db()
      .selectFrom('events')
      .select('kind')
      .where('company_id', '=', user.companyId)
      .where('entity_type', '=', 'pull-list')
      .where('entity_id', '=', list.id)
      .execute();
    expect(events.map((e) => e.kind)).toContain('pull-list.cancelled');

    // a released list is history and stays
    const t = await scene();
    const done = (await create(user, { order_name: t.order })).json() as PullListDto;
    for (const [vault, action] of planSteps(t))
      expect((await step(user, done.id, vault, action)).statusCode).toBe(200);
    for (const vault of [t.blockerLow, t.blockerTop, t.blockerA2])
      expect((await step(user, done.id, vault, 'put-back')).statusCode).toBe(200);
    expect(
      (await user.request({ method: 'POST', url: `/api/pull-lists/${done.id}/release` })).statusCode,
    ).toBe(200);
    const late = await cancel(user, done.id);
    expect(late.statusCode).toBe(409);
    expect(late.json()).toEqual({ errors: [LIST_RELEASED] });
  });

  it("hides another company's lists", async () => {
    const s = await scene();
    const list = (await create(user, { order_name: s.order })).json() as PullListDto;
    expect((await other.request({ method: 'GET', url: `/api/pull-lists/${list.id}` })).statusCode).toBe(404);
    expect((await step(other, list.id, s.onTop, 'pulled')).statusCode).toBe(404);
    expect((await create(other, { order_name: s.order })).statusCode).toBe(400);
    expect(await vaultNow(s.onTop.id)).toMatchObject({ position: 2 });
  });
});
