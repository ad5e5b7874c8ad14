import { describe, expect, it } from 'vitest';
import type { StagedVaultDto } from '@domain/schemas/vault.schema';
import { signIn, testEngines } from '../../test/test-app';
import { useTestApp } from '../../test/use-test-app';
import { buildStagedVault, buildVault, buildWarehouse, makeCouchbox } from '../../factories';
import {
  ALREADY_STAGED,
  COUCHBOX_FIELD_ONLY,
  FIELD_FULL,
  ONLY_TOPMOST_MOVED,
  ONLY_TOPMOST_STAGED,
  SLOT_TAKEN,
  notNextFree,
} from './vaults.service';

describe.each(testEngines())('stage and move routes on %s', (engine) => {
  const { ctx, user, other } = useTestApp(engine);

  const db = () => ctx.database.db;
  const placeOf = (vaultId: number) =>
    db()
      .selectFrom('vaults')
      .select(['field_id', 'position'])
      .where('id', '=', vaultId)
      .executeTakeFirstOrThrow();
  const newWarehouse = (companyId = user.companyId) => buildWarehouse(db(), { companyId, rows: 3, cols: 2 });

  describe('GET /api/stage/vaults', () => {
    it('answers the company staged vaults as a map keyed by id', async () => {
      const account = await signIn(ctx);
      const wh = await newWarehouse(account.companyId);
      const staged = await buildStagedVault(db(), {
        companyId: account.companyId,
        customerName: 'WAITING',
        orderName: 'W-1',
        name: '900',
      });
      await buildVault(db(), { companyId: account.companyId, fieldId: wh.field('A1').id });
      await buildStagedVault(db(), { companyId: other.companyId });
      const res = await account.request({ method: 'GET', url: '/api/stage/vaults' });
      expect(res.statusCode).toBe(200);
      const map = res.json() as Record<string, StagedVaultDto>;
      expect(Object.keys(map)).toEqual([String(staged.id)]);
      expect(map[staged.id]).toEqual({
        id: staged.id,
        name: '900',
        customer_name: 'WAITING',
        order_name: 'W-1',
        type: 'vault',
        note: null,
        staged_at: expect.any(String),
        staged_from: null,
      });
    });

    it('says where and when each vault was staged from its latest stage event', async () => {
      const wh = await newWarehouse();
      const vault = await buildVault(db(), { companyId: user.companyId, fieldId: wh.field('B2').id });
      const before = Date.now();
      expect((await user.request({ method: 'POST', url: `/api/stage/vaults/${vault.id}` })).statusCode).toBe(
        200,
      );
      const map = (await user.request({ method: 'GET', url: '/api/stage/vaults' })).json() as Record<
        string,
        StagedVaultDto
      >;
      const card = map[vault.id]!;
      expect(card.staged_from).toEqual({ warehouse: wh.name, field: 'B2', position: 3 });
      expect(Date.parse(card.staged_at!)).toBeGreaterThanOrEqual(before - 1000);
      // another company's stage says nothing of it
      const theirs = (await other.request({ method: 'GET', url: '/api/stage/vaults' })).json();
      expect(theirs[vault.id]).toBeUndefined();
    });

    it('answers 401 signed out', async () => {
      expect((await ctx.app.inject({ method: 'GET', url: '/api/stage/vaults' })).statusCode).toBe(401);
    });
  });

  describe('POST /api/stage/vaults/{id}', () => {
    it('stages the topmost vault, resets the field full flag and answers the vault with old_field_id', async () => {
      const wh = await newWarehouse();
      const field = wh.field('A1');
      const bottom = await buildVault(db(), { companyId: user.companyId, fieldId: field.id });
      const top = await buildVault(db(), { companyId: user.companyId, fieldId: field.id });
      await user.request({ method: 'PATCH', url: `/api/fields/${field.id}/full`, payload: { full: true } });

      const refused = await user.request({ method: 'POST', url: `/api/stage/vaults/${bottom.id}` });
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toEqual({ errors: [ONLY_TOPMOST_STAGED] });
      expect(await placeOf(bottom.id)).toEqual({ field_id: field.id, position: 3 });

      const res = await user.request({ method: 'POST', url: `/api/stage/vaults/${top.id}` });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        id: top.id,
        field_id: null,
        position: null,
        old_field_id: field.id,
      });
      const fieldRow = await db()
        .selectFrom('fields')
        .select('full')
        .where('id', '=', field.id)
        .executeTakeFirstOrThrow();
      expect(fieldRow.full).toBe(0);
      const staged = (await user.request({ method: 'GET', url: '/api/stage/vaults' })).json();
      expect(staged[top.id]).toBeDefined();

      const again = await user.request({ method: 'POST', url: `/api/stage/vaults/${top.id}` });
      expect(again.statusCode).toBe(400);
      expect(again.json()).toEqual({ errors: [ALREADY_STAGED] });
      expect((await user.request({ method: 'POST', url: `/api/stage/vaults/${bottom.id}` })).statusCode).toBe(
        200,
      );
    });

    it('answers 404 for another company vault and 401 signed out', async () => {
      const wh = await newWarehouse(other.companyId);
      const theirs = await buildVault(db(), { companyId: other.companyId, fieldId: wh.field('A1').id });
      expect((await user.request({ method: 'POST', url: `/api/stage/vaults/${theirs.id}` })).statusCode).toBe(
        404,
      );
      expect(
        (await ctx.app.inject({ method: 'POST', url: `/api/stage/vaults/${theirs.id}` })).statusCode,
      ).toBe(401);
      expect(await placeOf(theirs.id)).toEqual({ field_id: wh.field('A1').id, position: 3 });
    });
  });

  describe('PUT /api/vaults/move', () => {
    it('places a staged vault into the next free slot of a field', async () => {
      const wh = await newWarehouse();
      const staged = await buildStagedVault(db(), { companyId: user.companyId });
      const res = await user.request({
        method: 'PUT',
        url: '/api/vaults/move',
        payload: { vaultId: staged.id, fieldId: wh.field('B2').id, position: 3 },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        id: staged.id,
        field_id: wh.field('B2').id,
        field_name: 'B2',
        position: 3,
        warehouse_id: wh.id,
      });
      const map = (await user.request({ method: 'GET', url: '/api/stage/vaults' })).json();
      expect(map[staged.id]).toBeUndefined();
      const event = await db()
        .selectFrom('events')
        .select('kind')
        .where('entity_id', '=', staged.id)
        .where('kind', '=', 'vault.moved')
        .execute();
      expect(event).toHaveLength(1);
    });

    it('refuses an occupied slot (409), a slot that is not next (400), a full field and a full flag (409)', async () => {
      const wh = await newWarehouse();
      const field = wh.field('A1');
      await buildVault(db(), { companyId: user.companyId, fieldId: field.id });
      const staged = await buildStagedVault(db(), { companyId: user.companyId });
      const move = (fieldId: number, position: number) =>
        user.request({
          method: 'PUT',
          url: '/api/vaults/move',
          payload: { vaultId: staged.id, fieldId, position },
        });

      const occupied = await move(field.id, 3);
      expect(occupied.statusCode).toBe(409);
      expect(occupied.json()).toEqual({ errors: [SLOT_TAKEN] });
      const skipping = await move(field.id, 1);
      expect(skipping.statusCode).toBe(400);
      expect(skipping.json()).toEqual({ errors: [notNextFree(1, 'A1', 2)] });

      await buildVault(db(), { companyId: user.companyId, fieldId: field.id });
      await buildVault(db(), { companyId: user.companyId, fieldId: field.id });
      const full = await move(field.id, 1);
      expect(full.statusCode).toBe(409);
      const beyond = await move(field.id, 4);
      expect(beyond.json()).toEqual({ errors: [FIELD_FULL] });

      await user.request({
        method: 'PATCH',
        url: `/api/fields/${wh.field('A2').id}/full`,
        payload: { full: true },
      });
      const flagged = await move(wh.field('A2').id, 3);
      expect(flagged.statusCode).toBe(409);
      expect(flagged.json()).toEqual({ errors: [FIELD_FULL] });
      expect(await placeOf(staged.id)).toEqual({ field_id: null, position: null });
    });

    it('fills the extra couchbox slot, and keeps couchboxes out of plain fields', async () => {
      const wh = await newWarehouse();
      const couch = wh.field('B1');
      await makeCouchbox(db(), { companyId: user.companyId, fieldId: couch.id });
      for (let i = 0; i < 3; i++)
        await buildVault(db(), { companyId: user.companyId, fieldId: couch.id, type: 'couchbox' });
      const staged = await buildStagedVault(db(), { companyId: user.companyId, type: 'couchbox' });
      const plain = await user.request({
        method: 'PUT',
        url: '/api/vaults/move',
        payload: { vaultId: staged.id, fieldId: wh.field('A1').id, position: 3 },
      });
      expect(plain.json()).toEqual({ errors: [COUCHBOX_FIELD_ONLY] });
      const res = await user.request({
        method: 'PUT',
        url: '/api/vaults/move',
        payload: { vaultId: staged.id, fieldId: couch.id, position: 1 },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().position).toBe(1);
    });

    it('moves only the topmost vault of a field to another field', async () => {
      const wh = await newWarehouse();
      const bottom = await buildVault(db(), { companyId: user.companyId, fieldId: wh.field('A1').id });
      const top = await buildVault(db(), { companyId: user.companyId, fieldId: wh.field('A1').id });
      const refused = await user.request({
        method: 'PUT',
        url: '/api/vaults/move',
        payload: { vaultId: bottom.id, fieldId: wh.field('A2').id, position: 3 },
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toEqual({ errors: [ONLY_TOPMOST_MOVED] });
      const moved = await user.request({
        method: 'PUT',
        url: '/api/vaults/move',
        payload: { vaultId: top.id, fieldId: wh.field('A2').id, position: 3 },
      });
      expect(moved.statusCode).toBe(200);
      expect(await placeOf(top.id)).toEqual({ field_id: wh.field('A2').id, position: 3 });
    });

    it('lets one of two simultaneous moves into the same slot win', async () => {
      const wh = await newWarehouse();
      const one = await buildStagedVault(db(), { companyId: user.companyId });
      const two = await buildStagedVault(db(), { companyId: user.companyId });
      const results = await Promise.all(
        [one, two].map((v) =>
          user.request({
            method: 'PUT',
            url: '/api/vaults/move',
            payload: { vaultId: v.id, fieldId: wh.field('A1').id, position: 3 },
          }),
        ),
      );
      expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
      const inField = await db()
        .selectFrom('vaults')
        .select('id')
        .where('field_id', '=', wh.field('A1').id)
        .execute();
      expect(inField).toHaveLength(1);
    });

    it('answers 400 for invalid input, 404 for another company vault or field, 401 signed out', async () => {
      const wh = await newWarehouse();
      const theirWh = await newWarehouse(other.companyId);
      const mine = await buildStagedVault(db(), { companyId: user.companyId });
      const theirs = await buildStagedVault(db(), { companyId: other.companyId });
      const invalid = await user.request({
        method: 'PUT',
        url: '/api/vaults/move',
        payload: { vaultId: mine.id },
      });
      expect(invalid.statusCode).toBe(400);
      expect(invalid.json().errors.length).toBe(2);
      const theirVault = await user.request({
        method: 'PUT',
        url: '/api/vaults/move',
        payload: { vaultId: theirs.id, fieldId: wh.field('A1').id, position: 3 },
      });
      expect(theirVault.statusCode).toBe(404);
      const theirField = await user.request({
        method: 'PUT',
        url: '/api/vaults/move',
        payload: { vaultId: mine.id, fieldId: theirWh.field('A1').id, position: 3 },
      });
      expect(theirField.statusCode).toBe(404);
      const out = await ctx.app.inject({
        method: 'PUT',
        url: '/api/vaults/move',
        payload: { vaultId: mine.id, fieldId: wh.field('A1').id, position: 3 },
      });
      expect(out.statusCode).toBe(401);
      expect(await placeOf(mine.id)).toEqual({ field_id: null, position: null });
      expect(await placeOf(theirs.id)).toEqual({ field_id: null, position: null });
    });
  });
});
