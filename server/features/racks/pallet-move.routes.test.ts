import { beforeAll, describe, expect, it } from 'vitest';
import {
  PALLET_CHANGED,
  PALLET_SLOTS_TAKEN,
  PALLET_STAYS_IN_WAREHOUSE,
  SHELF_NOT_FOUND,
  shelfSpaceMessage,
  type PalletDto,
} from '@domain/schemas/rack.schema';
import { type SignedIn, signIn, testEngines } from '../../test/test-app';
import { useTestApp } from '../../test/use-test-app';
import { type BuiltRack, buildAccount, buildPallet, buildRack, buildWarehouse } from '../../factories';

describe.each(testEngines())('PUT /api/racks/pallets/{id}/move on %s', (engine) => {
  const { ctx, user, other } = useTestApp(engine);
  let warehouseId: number;
  let rack: BuiltRack;
  let counter = 0;

  async function newWarehouse(companyId: number) {
    counter += 1;
    const warehouse = await buildWarehouse(ctx.database.db, {
      companyId,
      name: `Pallet moves ${counter}`,
      rows: 1,
      cols: 1,
      width: 100,
      length: 50,
      gridX: 90,
      gridY: 40,
    });
    return warehouse.id;
  }

  beforeAll(async () => {
    warehouseId = await newWarehouse(user.companyId);
    rack = await buildRack(ctx.database.db, {
      companyId: user.companyId,
      warehouseId,
      name: 'North',
      shelves: 2,
      capacity: 4,
    });
  });

  let serial = 0;
  /** A fresh pallet on the given shelf of the rack (top shelf 0). */
  function pallet(shelf: number, slotIndex: number, spots = 1) {
    serial += 1;
    return buildPallet(ctx.database.db, {
      companyId: user.companyId,
      shelfId: rack.shelfIds[shelf]!,
      customer: `MOVER ${serial}`,
      name: `Crate ${serial}`,
      slotIndex,
      spots,
    });
  }

  const move = (id: number, body: Record<string, unknown>, as: SignedIn = user) =>
    as.request({ method: 'PUT', url: `/api/racks/pallets/${id}/move`, payload: body });

  const placeOf = (id: number) =>
    ctx.database.db
      .selectFrom('pallets')
      .select(['shelf_id', 'slot_index', 'version'])
      .where('id', '=', id)
      .executeTakeFirst();

  async function clearRack() {
    await ctx.database.db.deleteFrom('pallets').where('shelf_id', 'in', rack.shelfIds).execute();
  }

  it('moves a pallet to another shelf, to the slot asked or the first free run, and records where from and to', async () => {
    await clearRack();
    const id = await pallet(0, 0, 2);
    await pallet(1, 0);
    const res = await move(id, { shelf_id: rack.shelfIds[1], version: 1 });
    expect(res.statusCode).toBe(200);
    expect(res.json() as PalletDto).toMatchObject({ id, shelfSpots: 2, slotIndex: 1, version: 2 });
    expect(await placeOf(id)).toEqual({ shelf_id: rack.shelfIds[1], slot_index: 1, version: 2 });

    const event = await ctx.database.db
      .selectFrom('events')
      .select(['kind', 'payload', 'warehouse_id'])
      .where('entity_type', '=', 'pallet')
      .where('entity_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(event.kind).toBe('pallet.moved');
    expect(event.warehouse_id).toBe(warehouseId);
    const payload = typeof event.payload === 'string' ? JSON.parse(event.payload) : event.payload;
    expect(payload.before).toEqual({
      rackId: rack.id,
      rack: 'North',
      shelfId: rack.shelfIds[0],
      shelf: 1,
      slot: 1,
      spots: 2,
    });
    expect(payload.after).toMatchObject({ shelfId: rack.shelfIds[1], shelf: 2, slot: 2 });

    // along its own shelf: its own spots do not count against it
    const along = await move(id, { shelf_id: rack.shelfIds[1], slot_index: 2 });
    expect(along.statusCode).toBe(200);
    expect(await placeOf(id)).toMatchObject({ shelf_id: rack.shelfIds[1], slot_index: 2, version: 3 });
  });

  it('refuses a place without room or running into another pallet, and the pallet stays', async () => {
    await clearRack();
    const id = await pallet(0, 0, 2);
    await pallet(1, 0, 3);
    const full = await move(id, { shelf_id: rack.shelfIds[1] });
    expect(full.statusCode).toBe(400);
    expect(full.json()).toEqual({ errors: [shelfSpaceMessage(4, 1)] });
    const into = await move(id, { shelf_id: rack.shelfIds[0], slot_index: 3 });
    expect(into.statusCode).toBe(400);
    expect(into.json()).toEqual({ errors: [PALLET_SLOTS_TAKEN] });
    expect(await placeOf(id)).toEqual({ shelf_id: rack.shelfIds[0], slot_index: 0, version: 1 });
  });

  it('answers a stale version with 409 and a move to where it stands with the pallet unchanged', async () => {
    await clearRack();
    const id = await pallet(0, 1);
    const stale = await move(id, { shelf_id: rack.shelfIds[1], version: 7 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toEqual({ errors: [PALLET_CHANGED] });
    const same = await move(id, { shelf_id: rack.shelfIds[0], slot_index: 1 });
    expect(same.statusCode).toBe(200);
    expect(await placeOf(id)).toEqual({ shelf_id: rack.shelfIds[0], slot_index: 1, version: 1 });
  });

  it('keeps a pallet in its warehouse and on shelves of its own company', async () => {
    await clearRack();
    const id = await pallet(0, 0);
    const elsewhere = await buildRack(ctx.database.db, {
      companyId: user.companyId,
      warehouseId: await newWarehouse(user.companyId),
    });
    const away = await move(id, { shelf_id: elsewhere.shelfIds[0] });
    expect(away.statusCode).toBe(400);
    expect(away.json()).toEqual({ errors: [PALLET_STAYS_IN_WAREHOUSE] });

    const theirs = await buildRack(ctx.database.db, {
      companyId: other.companyId,
      warehouseId: await newWarehouse(other.companyId),
    });
    for (const shelfId of [theirs.shelfIds[0], 999999]) {
      const res = await move(id, { shelf_id: shelfId });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ errors: [SHELF_NOT_FOUND] });
    }
    // and another company cannot move it, even onto its own shelf
    const foreign = await move(id, { shelf_id: theirs.shelfIds[0] }, other);
    expect(foreign.statusCode).toBe(404);
    expect(await placeOf(id)).toEqual({ shelf_id: rack.shelfIds[0], slot_index: 0, version: 1 });
  });

  it('asks for a shelf, and leaves moving to the Floor role', async () => {
    await clearRack();
    const id = await pallet(0, 0);
    const noShelf = await move(id, {});
    expect(noShelf.statusCode).toBe(400);
    expect(noShelf.json().errors.join(' ')).toMatch(/shelf_id/);
    const viewer = await signIn(
      ctx,
      await buildAccount(ctx.database.db, { company: user.companyName, role: 'viewer' }),
    );
    const refused = await move(id, { shelf_id: rack.shelfIds[1] }, viewer);
    expect(refused.statusCode).toBe(403);
    expect(await placeOf(id)).toEqual({ shelf_id: rack.shelfIds[0], slot_index: 0, version: 1 });
  });
});
