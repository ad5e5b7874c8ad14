import { describe, expect, it } from 'vitest';
import { severalVaults } from '@domain/rules/scan-text';
import type { ScanAnswer, ScannedVaultDto } from '@domain/schemas/scan.schema';
import { type SignedIn, signIn, testEngines } from '../../test/test-app';
import { useTestApp } from '../../test/use-test-app';
import { buildStagedVault, buildVault, buildWarehouse } from '../../factories';
import { alreadyInField, fieldFull } from '../vaults/vaults.service';
import { LABEL_NOT_FOUND, NOT_OURS, NOTHING_NAMED } from './scan.service';

describe.each(testEngines())('scan routes on %s', (engine) => {
  const { ctx, user, other } = useTestApp(engine);

  const db = () => ctx.database.db;
  const codeOf = async (vaultId: number) =>
    (await db().selectFrom('vaults').select('label_code').where('id', '=', vaultId).executeTakeFirstOrThrow())
      .label_code!;
  const scan = (who: SignedIn, text: string, warehouseId?: number) =>
    who.request({
      method: 'GET',
      url: `/api/scan?${new URLSearchParams({ text, ...(warehouseId ? { warehouseId: String(warehouseId) } : {}) })}`,
    });
  const placeOf = (vaultId: number) =>
    db()
      .selectFrom('vaults')
      .select(['field_id', 'position'])
      .where('id', '=', vaultId)
      .executeTakeFirstOrThrow();

  it('gives every new vault its own label code', async () => {
    const wh = await buildWarehouse(db(), { companyId: user.companyId, rows: 2, cols: 1 });
    const a = await buildVault(db(), { companyId: user.companyId, fieldId: wh.field('A1').id });
    const b = await buildStagedVault(db(), { companyId: user.companyId });
    const [codeA, codeB] = [await codeOf(a.id), await codeOf(b.id)];
    expect(codeA).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(codeB).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(codeA).not.toBe(codeB);
    // nothing in the code follows the vault's id: two vaults made one after the other differ in nearly every
    // character (random codes differ in ~15.75 of 16; a counter or an encoded id would share most of them)
    const differing = [...codeA!].filter((ch, i) => ch !== codeB![i]).length;
    expect(differing).toBeGreaterThanOrEqual(10);
  });

  it('resolves a vault label link to where the vault stands, with the vaults above it', async () => {
    const wh = await buildWarehouse(db(), { companyId: user.companyId, rows: 2, cols: 2, fieldCapacity: 3 });
    const bottom = await buildVault(db(), {
      companyId: user.companyId,
      fieldId: wh.field('B2').id,
      name: 'SC-1',
    });
    await buildVault(db(), { companyId: user.companyId, fieldId: wh.field('B2').id });
    const res = await scan(user, `https://labels.example/v/${await codeOf(bottom.id)}`);
    expect(res.statusCode).toBe(200);
    const answer = res.json() as ScanAnswer;
    expect(answer).toEqual({
      kind: 'vault',
      vault: {
        id: bottom.id,
        name: 'SC-1',
        customerName: bottom.customer_name,
        orderName: bottom.order_name,
        type: 'vault',
        warehouseId: wh.id,
        warehouseName: wh.name,
        fieldId: wh.field('B2').id,
        fieldName: 'B2',
        position: 3,
        above: 1,
      },
    });
  });

  it("never resolves another company's label, and says so as for a code that exists nowhere", async () => {
    const wh = await buildWarehouse(db(), { companyId: user.companyId, rows: 1, cols: 1 });
    const vault = await buildVault(db(), { companyId: user.companyId, fieldId: wh.field('A1').id });
    const theirs = await scan(other, `/v/${await codeOf(vault.id)}`);
    const nowhere = await scan(other, '/v/AAAAAAAAAAAAAAAA');
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json()).toEqual({ errors: [LABEL_NOT_FOUND] });
    expect(nowhere.json()).toEqual(theirs.json());
    const signedOut = await ctx.app.inject({
      method: 'GET',
      url: `/api/scan?text=/v/${await codeOf(vault.id)}`,
    });
    expect(signedOut.statusCode).toBe(401);
  });

  it('reads field links, field names in the current warehouse, warehouse name plus field, and vault numbers', async () => {
    const account = await signIn(ctx);
    const wh = await buildWarehouse(db(), {
      companyId: account.companyId,
      name: 'North Hall',
      rows: 3,
      cols: 2,
    });
    const second = await buildWarehouse(db(), { companyId: account.companyId, rows: 3, cols: 2 });
    const link = (await scan(account, `http://x.test/warehouse/${wh.slug}?field=B3`)).json() as ScanAnswer;
    expect(link.kind === 'field' && [link.field.id, link.field.name, link.field.nextFree]).toEqual([
      wh.field('B3').id,
      'B3',
      3,
    ]);
    const local = (await scan(account, 'a2', second.id)).json() as ScanAnswer;
    expect(local.kind === 'field' && local.field.id).toBe(second.field('A2').id);
    const named = (await scan(account, 'north hall A2')).json() as ScanAnswer;
    expect(named.kind === 'field' && named.field.id).toBe(wh.field('A2').id);
    // two warehouses have an A2: without a warehouse the name alone is not enough
    const ambiguous = await scan(account, 'A2');
    expect(ambiguous.statusCode).toBe(409);
    const vault = await buildVault(db(), {
      companyId: account.companyId,
      fieldId: wh.field('A1').id,
      name: '7731',
    });
    const byNumber = (await scan(account, ' 7731 ')).json() as ScanAnswer;
    expect(byNumber.kind === 'vault' && byNumber.vault.id).toBe(vault.id);
    await buildStagedVault(db(), { companyId: account.companyId, name: '7731' });
    expect((await scan(account, '7731')).json()).toEqual({ errors: [severalVaults('7731')] });
    expect((await scan(account, 'nothing here')).json()).toEqual({ errors: [NOTHING_NAMED] });
    expect((await scan(account, 'https://elsewhere.test/page')).json()).toEqual({ errors: [NOT_OURS] });
    // the other company's warehouse link does not open here
    expect((await scan(other, `/warehouse/${wh.slug}?field=B3`)).statusCode).toBe(404);
  });

  it('reads a vault number in any case, and opens by id the vault chosen among several sharing a number', async () => {
    const account = await signIn(ctx);
    const wh = await buildWarehouse(db(), { companyId: account.companyId, rows: 1, cols: 2 });
    const upper = await buildVault(db(), {
      companyId: account.companyId,
      fieldId: wh.field('A1').id,
      name: 'Cx-9',
    });
    // caps lock on the scanner, or the number typed by hand
    for (const text of ['cx-9', 'CX-9']) {
      const answer = (await scan(account, text)).json() as ScanAnswer;
      expect(answer.kind === 'vault' && answer.vault.id, text).toBe(upper.id);
    }
    // the number as written wins over the same letters in another case
    const exact = await buildVault(db(), {
      companyId: account.companyId,
      fieldId: wh.field('B1').id,
      name: 'cx-9',
    });
    const written = (await scan(account, 'cx-9')).json() as ScanAnswer;
    expect(written.kind === 'vault' && written.vault.id).toBe(exact.id);
    expect((await scan(account, 'CX-9')).json()).toEqual({ errors: [severalVaults('CX-9')] });

    // a vault released to its customer gave its number back: the one in store is meant
    const gone = await buildStagedVault(db(), { companyId: account.companyId, name: 'R-5' });
    await db()
      .updateTable('vaults')
      .set({ released_at: new Date().toISOString(), released_by: 'Crew' })
      .where('id', '=', gone.id)
      .execute();
    const kept = await buildVault(db(), {
      companyId: account.companyId,
      fieldId: wh.field('A1').id,
      name: 'R-5',
    });
    const inStore = (await scan(account, 'R-5')).json() as ScanAnswer;
    expect(inStore.kind === 'vault' && inStore.vault.id).toBe(kept.id);

    const chosen = await account.request({ method: 'GET', url: `/api/scan/vaults/${upper.id}` });
    expect(chosen.statusCode).toBe(200);
    expect(chosen.json()).toMatchObject({
      kind: 'vault',
      vault: { id: upper.id, name: 'Cx-9', fieldName: 'A1' },
    });
    const theirs = await other.request({ method: 'GET', url: `/api/scan/vaults/${upper.id}` });
    expect(theirs.statusCode).toBe(404);
    expect((await account.request({ method: 'GET', url: '/api/scan/vaults/x' })).statusCode).toBe(404);
  });

  it('refuses scans that are empty or too long without a server error', async () => {
    expect((await scan(user, '   ')).statusCode).toBe(400);
    expect((await scan(user, 'x'.repeat(301))).statusCode).toBe(400);
    expect((await user.request({ method: 'GET', url: '/api/scan?warehouseId=abc&text=A1' })).statusCode).toBe(
      400,
    );
  });

  describe('POST /api/scan/move', () => {
    it("moves a staged vault into the field's next free slot, then refuses the full field by name", async () => {
      const wh = await buildWarehouse(db(), {
        companyId: user.companyId,
        rows: 2,
        cols: 1,
        fieldCapacity: 2,
      });
      await buildVault(db(), { companyId: user.companyId, fieldId: wh.field('A2').id });
      const staged = await buildStagedVault(db(), { companyId: user.companyId });
      const move = (vaultId: number) =>
        user.request({
          method: 'POST',
          url: '/api/scan/move',
          payload: { vaultId, fieldId: wh.field('A2').id },
        });
      const res = await move(staged.id);
      expect(res.statusCode).toBe(200);
      expect((res.json() as ScannedVaultDto).fieldName).toBe('A2');
      expect(await placeOf(staged.id)).toEqual({ field_id: wh.field('A2').id, position: 1 });
      const again = await move(staged.id);
      expect(again.json()).toEqual({ errors: [alreadyInField('A2')] });
      const next = await buildStagedVault(db(), { companyId: user.companyId });
      const full = await move(next.id);
      expect(full.statusCode).toBe(409);
      expect(full.json()).toEqual({ errors: [fieldFull('A2')] });
      expect(await placeOf(next.id)).toEqual({ field_id: null, position: null });
    });

    it("refuses another company's vault or field as not found and changes nothing", async () => {
      const wh = await buildWarehouse(db(), { companyId: user.companyId, rows: 1, cols: 1 });
      const mine = await buildStagedVault(db(), { companyId: other.companyId });
      const theirField = await other.request({
        method: 'POST',
        url: '/api/scan/move',
        payload: { vaultId: mine.id, fieldId: wh.field('A1').id },
      });
      expect(theirField.statusCode).toBe(404);
      expect(await placeOf(mine.id)).toEqual({ field_id: null, position: null });
    });

    it('puts two vaults scanned into the same field at once into two different slots', async () => {
      const wh = await buildWarehouse(db(), {
        companyId: user.companyId,
        rows: 1,
        cols: 1,
        fieldCapacity: 3,
      });
      const a = await buildStagedVault(db(), { companyId: user.companyId });
      const b = await buildStagedVault(db(), { companyId: user.companyId });
      const answers = await Promise.all(
        [a, b].map((v) =>
          user.request({
            method: 'POST',
            url: '/api/scan/move',
            payload: { vaultId: v.id, fieldId: wh.field('A1').id },
          }),
        ),
      );
      for (const res of answers) expect([200, 409]).toContain(res.statusCode);
      const places = [await placeOf(a.id), await placeOf(b.id)].filter((p) => p.field_id !== null);
      expect(new Set(places.map((p) => p.position)).size).toBe(places.length);
      expect(places.length).toBeGreaterThanOrEqual(1);
    });
  });
});
