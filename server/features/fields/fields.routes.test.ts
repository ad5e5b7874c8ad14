import { describe, expect, it } from 'vitest';
import type { FieldDto } from '@domain/schemas/warehouse.schema';
import { type SignedIn, testEngines } from '../../test/test-app';
import { useTestApp } from '../../test/use-test-app';
import { buildVault, buildWarehouse, makeCouchbox } from '../../factories';
import { countVaultsInFields, occupiedPositions } from '../vaults/vaults.repo';
import { findField, findFieldAt, findFieldsOfWarehouse, setFieldFull, setFieldType } from './fields.repo';
import { belowIsPaired, isBottomHalf, noFieldBelow, stageVaultsFirst, wrongField2 } from './fields.service';

describe.each(testEngines())('field routes on %s', (engine) => {
  const { ctx, user, other } = useTestApp(engine);

  const db = () => ctx.database.db;
  const typesOf = async (ids: number[]) => {
    const rows = await db().selectFrom('fields').select(['id', 'type']).where('id', 'in', ids).execute();
    return ids.map((id) => rows.find((r) => r.id === id)!.type);
  };
  const newWarehouse = (companyId = user.companyId) => buildWarehouse(db(), { companyId, rows: 3, cols: 2 });
  const setType = (as: SignedIn, fieldId: number, payload: Record<string, unknown>) =>
    as.request({ method: 'PATCH', url: `/api/fields/${fieldId}`, payload });

  describe('PATCH /api/fields/{id}', () => {
    it('pairs the field with the one below as couchbox-T / couchbox-B and back', async () => {
      const wh = await newWarehouse();
      const [a1, a2] = [wh.field('A1'), wh.field('A2')];
      const res = await setType(user, a1.id, { type: 'couchbox', field2: 'A2', warehouseId: wh.id });
      expect(res.statusCode).toBe(200);
      const body = res.json() as { field1: FieldDto; field2: FieldDto };
      expect(body.field1).toMatchObject({ id: a1.id, name: 'A1', type: 'couchbox-T' });
      expect(body.field2).toMatchObject({ id: a2.id, name: 'A2', type: 'couchbox-B' });
      const events = await db()
        .selectFrom('events')
        .select('kind')
        .where('entity_id', '=', a1.id)
        .where('kind', '=', 'field.type')
        .execute();
      expect(events).toHaveLength(1);

      const back = await setType(user, a1.id, { type: 'vault', field2: 'A2', warehouseId: String(wh.id) });
      expect(back.statusCode).toBe(200);
      expect(back.json()).toMatchObject({ field1: { type: 'vault' }, field2: { type: 'vault' } });
      expect(await typesOf([a1.id, a2.id])).toEqual(['vault', 'vault']);
    });

    it('refuses while either field holds vaults', async () => {
      const wh = await newWarehouse();
      await buildVault(db(), { companyId: user.companyId, fieldId: wh.field('A2').id });
      const res = await setType(user, wh.field('A1').id, { type: 'couchbox' });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ errors: [stageVaultsFirst(['A1', 'A2'])] });
      expect(await typesOf([wh.field('A1').id, wh.field('A2').id])).toEqual(['vault', 'vault']);

      await makeCouchbox(db(), { companyId: user.companyId, fieldId: wh.field('B1').id });
      await buildVault(db(), { companyId: user.companyId, fieldId: wh.field('B1').id, type: 'couchbox' });
      const unpair = await setType(user, wh.field('B1').id, { type: 'vault' });
      expect(unpair.statusCode).toBe(400);
      expect(unpair.json()).toEqual({ errors: [stageVaultsFirst(['B1', 'B2'])] });
      expect(await typesOf([wh.field('B1').id, wh.field('B2').id])).toEqual(['couchbox-T', 'couchbox-B']);
    });

    it('refuses the last row, a lower neighbour already paired, a couchbox-B and a wrong field2', async () => {
      const wh = await newWarehouse();
      const last = await setType(user, wh.field('A3').id, { type: 'couchbox' });
      expect(last.json()).toEqual({ errors: [noFieldBelow('A3')] });

      await makeCouchbox(db(), { companyId: user.companyId, fieldId: wh.field('B2').id });
      const paired = await setType(user, wh.field('B1').id, { type: 'couchbox' });
      expect(paired.statusCode).toBe(400);
      expect(paired.json()).toEqual({ errors: [belowIsPaired('B2')] });
      const bottom = await setType(user, wh.field('B3').id, { type: 'vault' });
      expect(bottom.json()).toEqual({ errors: [isBottomHalf('B3')] });

      const wrong = await setType(user, wh.field('A1').id, { type: 'couchbox', field2: 'B2' });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json()).toEqual({ errors: [wrongField2('B2', 'A2')] });
      expect(await typesOf(wh.fields.map((f) => f.id))).toEqual([
        'vault',
        'vault',
        'vault',
        'vault',
        'couchbox-T',
        'couchbox-B',
      ]);
    });

    it('answers 400 for an invalid type and changes nothing', async () => {
      const wh = await newWarehouse();
      const res = await setType(user, wh.field('A1').id, { type: 'couchbox-T' });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ errors: ['type: Type must be couchbox or vault.'] });
      expect(await typesOf([wh.field('A1').id])).toEqual(['vault']);
    });

    it('answers 404 for another company field and 401 signed out', async () => {
      const theirs = await newWarehouse(other.companyId);
      expect((await setType(user, theirs.field('A1').id, { type: 'couchbox' })).statusCode).toBe(404);
      const out = await ctx.app.inject({
        method: 'PATCH',
        url: `/api/fields/${theirs.field('A1').id}`,
        payload: { type: 'couchbox' },
      });
      expect(out.statusCode).toBe(401);
      expect(await typesOf([theirs.field('A1').id, theirs.field('A2').id])).toEqual(['vault', 'vault']);
    });

    it('lets only one of two simultaneous pairings over a shared field happen', async () => {
      const wh = await newWarehouse();
      const results = await Promise.all([
        setType(user, wh.field('A1').id, { type: 'couchbox' }),
        setType(user, wh.field('A2').id, { type: 'couchbox' }),
      ]);
      const types = await typesOf(wh.fields.slice(0, 3).map((f) => f.id));
      // either A1+A2 or A2+A3 became the pair, never an overlap
      expect([
        ['couchbox-T', 'couchbox-B', 'vault'],
        ['vault', 'couchbox-T', 'couchbox-B'],
      ]).toContainEqual(types);
      expect(results.filter((r) => r.statusCode === 200).length).toBeGreaterThanOrEqual(1);
    });
  });

  describe('PATCH /api/fields/{id}/full', () => {
    it('sets and clears the manual full flag and answers the field', async () => {
      const wh = await newWarehouse();
      const vault = await buildVault(db(), { companyId: user.companyId, fieldId: wh.field('A1').id });
      const res = await user.request({
        method: 'PATCH',
        url: `/api/fields/${wh.field('A1').id}/full`,
        payload: { full: true },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        id: wh.field('A1').id,
        full: true,
        vaults: { [vault.id]: { id: vault.id } },
      });
      const off = await user.request({
        method: 'PATCH',
        url: `/api/fields/${wh.field('A1').id}/full`,
        payload: { full: 'false' },
      });
      expect(off.json().full).toBe(false);
    });

    it('answers 400 for an invalid flag and changes nothing', async () => {
      const wh = await newWarehouse();
      const res = await user.request({
        method: 'PATCH',
        url: `/api/fields/${wh.field('A1').id}/full`,
        payload: { full: 'maybe' },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ errors: ['full: full must be true or false.'] });
      const row = await db()
        .selectFrom('fields')
        .select('full')
        .where('id', '=', wh.field('A1').id)
        .executeTakeFirstOrThrow();
      expect(row.full).toBe(0);
    });

    it('answers 404 for another company field and 401 signed out', async () => {
      const theirs = await newWarehouse(other.companyId);
      const url = `/api/fields/${theirs.field('A1').id}/full`;
      expect((await user.request({ method: 'PATCH', url, payload: { full: true } })).statusCode).toBe(404);
      expect((await ctx.app.inject({ method: 'PATCH', url, payload: { full: true } })).statusCode).toBe(401);
      const row = await db()
        .selectFrom('fields')
        .select('full')
        .where('id', '=', theirs.field('A1').id)
        .executeTakeFirstOrThrow();
      expect(row.full).toBe(0);
    });
  });

  describe('repositories take the company', () => {
    it('give another company nothing of a field, and change nothing of it', async () => {
      const wh = await newWarehouse();
      const a1 = wh.field('A1');
      await buildVault(db(), { companyId: user.companyId, fieldId: a1.id });
      const [wrong, right] = [other.companyId, user.companyId];

      expect(await findFieldsOfWarehouse(db(), wrong, wh.id)).toEqual([]);
      expect(await findFieldAt(db(), wrong, wh.id, a1.col, a1.row)).toBeUndefined();
      expect(await occupiedPositions(db(), wrong, a1.id)).toEqual([]);
      expect(await countVaultsInFields(db(), wrong, [a1.id])).toBe(0);
      await setFieldFull(db(), wrong, a1.id, true);
      await setFieldType(db(), wrong, a1.id, 'couchbox-T');
      expect(await findField(db(), right, a1.id)).toMatchObject({ type: 'vault', full: 0 });

      // the owner sees and changes them
      expect(await findFieldsOfWarehouse(db(), right, wh.id)).toHaveLength(6);
      expect(await findFieldAt(db(), right, wh.id, a1.col, a1.row)).toMatchObject({ id: a1.id });
      expect(await occupiedPositions(db(), right, a1.id)).toHaveLength(1);
      expect(await countVaultsInFields(db(), right, [a1.id])).toBe(1);
      await setFieldFull(db(), right, a1.id, true);
      expect(await findField(db(), right, a1.id)).toMatchObject({ full: 1 });
    });
  });
});
