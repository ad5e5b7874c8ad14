import { describe, expect, it } from 'vitest';
import type { ImportDryRunDto, ImportRecordDto } from '@domain/schemas/import.schema';
import { buildVault, buildWarehouse, makeCouchbox } from '../factories';
import { standsOnImport } from '../features/import/import.service';
import { FORMULA_CELL } from '../features/import/read-sheet';
import { couchboxBottom, plainFieldOnly } from '../features/vaults/vaults.service';
import { findStackViolations } from './invariants.repo';
import { postSheet } from './multipart-body';
import { testEngines } from './test-app';
import { useTestApp } from './use-test-app';

const HEADER = 'Warehouse,Field,Position,Vault Number,Customer,Order,Type,Note';

/** Issue 33: the paths outside the vault screens keep every stack true (the preamble checks them after each test). */
describe.each(testEngines())('stack rules on every placing path on %s', (engine) => {
  const { ctx, user } = useTestApp(engine, { users: 1 });
  const db = () => ctx.database.db;
  const csv = (rows: string[]) => Buffer.from(`${HEADER}\r\n${rows.join('\r\n')}\r\n`);
  const send = (url: string, content: Buffer) =>
    postSheet(user, url, content, { fileName: 'v.csv', contentType: 'text/csv' });

  it('refuses to undo an import once a vault stands on one of its vaults, and says so in the list', async () => {
    const wh = await buildWarehouse(db(), { companyId: user.companyId, name: `Undo ${Date.now()}` });
    const committed = await send('/api/import/vaults', csv([`${wh.name},A1,3,U-1,SMITH,O-1,vault,`]));
    expect(committed.statusCode, committed.body).toBe(201);
    const record = committed.json() as ImportRecordDto;
    expect(record.can_undo).toBe(true);
    // a colleague adds a vault on top of the imported one
    await buildVault(db(), { companyId: user.companyId, fieldId: wh.field('A1').id, name: 'ON-TOP' });

    const listed = (await user.request({ method: 'GET', url: '/api/imports' })).json() as ImportRecordDto[];
    const mine = listed.find((r) => r.id === record.id)!;
    expect(mine.can_undo).toBe(false);
    expect(mine.undo_refusal).toBe(standsOnImport('ON-TOP', 'A1'));

    const undo = await user.request({ method: 'POST', url: `/api/imports/${record.id}/undo` });
    expect(undo.statusCode).toBe(409);
    expect(undo.json()).toEqual({ errors: [standsOnImport('ON-TOP', 'A1')] });
    expect(await findStackViolations(db())).toEqual([]);
  });

  it('stores a plain vault only in a plain field, with a message that names the couchbox field', async () => {
    const wh = await buildWarehouse(db(), { companyId: user.companyId, name: `Recv ${Date.now()}` });
    await makeCouchbox(db(), { companyId: user.companyId, fieldId: wh.field('A1').id });
    const receive = (fieldId: number) =>
      user.request({
        method: 'POST',
        url: '/api/receiving',
        payload: {
          customer_name: 'SMITH',
          order_name: 'O-9',
          vaults: [{ type: 'vault', field_id: fieldId }],
        },
      });
    const top = await receive(wh.field('A1').id);
    expect(top.statusCode).toBe(400);
    expect(top.json()).toEqual({ errors: [plainFieldOnly('vault', 'A1')] });
    const bottom = await receive(wh.field('A2').id);
    expect(bottom.statusCode).toBe(400);
    expect(bottom.json()).toEqual({ errors: [couchboxBottom('A2')] });
    // the proposal's choices mark the couchbox field, which the web offers only to couchboxes
    const proposal = await user.request({
      method: 'POST',
      url: '/api/receiving/proposal',
      payload: { customer_name: 'SMITH', order_name: 'O-9', vaults: [{ type: 'vault' }] },
    });
    const a1 = (proposal.json() as { fields: { field_id: number; couchbox: boolean }[] }).fields.find(
      (f) => f.field_id === wh.field('A1').id,
    );
    expect(a1?.couchbox).toBe(true);
  });

  it('moves no plain vault into a couchbox field (stage put-back, scan-to-move and pull lists use this move)', async () => {
    const wh = await buildWarehouse(db(), { companyId: user.companyId, name: `Move ${Date.now()}` });
    await makeCouchbox(db(), { companyId: user.companyId, fieldId: wh.field('B1').id });
    const vault = await buildVault(db(), { companyId: user.companyId, fieldId: wh.field('A1').id });
    const moved = await user.request({
      method: 'PUT',
      url: '/api/vaults/move',
      payload: { vaultId: vault.id, fieldId: wh.field('B1').id, position: 4 },
    });
    expect(moved.statusCode).toBe(400);
    expect(moved.json()).toEqual({ errors: [plainFieldOnly('vault', 'B1')] });
  });

  it('refuses a formula behind a leading tab or blanks, and a refused row makes no false gap below it', async () => {
    const wh = await buildWarehouse(db(), { companyId: user.companyId, name: `Sheet ${Date.now()}` });
    const plan = (
      await send(
        '/api/import/vaults/dry-run',
        csv([
          `${wh.name},A1,3,F-1,SMITH,O-1,vault,"\t=cmd|' /C calc'!A0"`,
          `${wh.name},A1,2,F-2,SMITH,O-1,vault,`,
          `${wh.name},A2,3,F-3,SMITH,O-1,round,`,
          `${wh.name},A2,2,F-4,SMITH,O-1,vault,`,
          `${wh.name},A3,3,F-5,SMITH,O-1,vault,  =1+1`,
        ]),
      )
    ).json() as ImportDryRunDto;
    expect(plan.problems.map((p) => [p.row, p.column])).toEqual([
      [2, 'Note'],
      [4, 'Type'],
      [6, 'Note'],
    ]);
    expect(plan.problems.filter((p) => p.column === 'Note').map((p) => p.message)).toEqual([
      FORMULA_CELL,
      FORMULA_CELL,
    ]);
  });
});
