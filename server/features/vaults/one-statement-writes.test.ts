import { describe, expect, it } from 'vitest';
import { systemActor } from '../../auth/actor';
import { isLostRace } from '../../db/locks';
import { buildAccount, buildVault, buildWarehouse } from '../../factories';
import { testEngines } from '../../test/test-app';
import { countRows } from '../../test/row-count.repo';
import { useTestApp } from '../../test/use-test-app';
import { editDimensions } from '../layout/layout.service';
import { readPlacement, writePlacement, writeRemoval } from './vaults.repo';
import { createStagedVault, loadVault } from './vaults.service';

// decision 014: on PostgreSQL a vault write reads, then writes in one statement that holds only if what it read is
// unchanged. These tests change the ground between the two and check that the write is refused whole.
describe.skipIf(!testEngines().includes('postgres'))('one-statement vault writes on postgres', () => {
  const { ctx } = useTestApp('postgres', { users: 0 });

  async function setUp() {
    const db = ctx.database.db;
    const { companyId } = await buildAccount(db);
    const warehouse = await buildWarehouse(db, { companyId, rows: 1, cols: 2, fieldCapacity: 3 });
    const staged = await createStagedVault(db, systemActor(companyId), { customer_name: 'WAITING' });
    return { db, companyId, warehouse, field: warehouse.field('A1'), staged };
  }

  const movedEvent = (companyId: number, vaultId: number) =>
    ({ companyId, userId: null, kind: 'vault.moved', entityType: 'vault', entityId: vaultId }) as const;

  it('refuses a move into a field that gained a vault after the read, and writes nothing of it', async () => {
    const { db, companyId, field, staged } = await setUp();
    const state = await readPlacement(db, companyId, staged.id, field.id);
    await buildVault(db, { companyId, fieldId: field.id });
    const events = await countRows(db, 'events', companyId);
    const write = writePlacement(
      db,
      { companyId, fields: [state.fields.get(field.id)!] },
      state.vault!,
      { fieldId: field.id, position: 2 },
      movedEvent(companyId, staged.id),
    );
    await expect(write).rejects.toSatisfy(isLostRace);
    expect((await loadVault(db, companyId, staged.id)).field_id).toBeNull();
    expect(await countRows(db, 'events', companyId)).toBe(events);
  });

  it('takes a capacity change of the warehouse as a change of each of its fields', async () => {
    const { db, companyId, warehouse, field, staged } = await setUp();
    const state = await readPlacement(db, companyId, staged.id, field.id);
    await editDimensions(db, systemActor(companyId), warehouse.id, { field_capacity: 4 });
    const after = await readPlacement(db, companyId, staged.id, field.id);
    expect(after.fields.get(field.id)!.xmin).not.toBe(state.fields.get(field.id)!.xmin);
    const write = writePlacement(
      db,
      { companyId, fields: [state.fields.get(field.id)!] },
      state.vault!,
      { fieldId: field.id, position: 3 },
      movedEvent(companyId, staged.id),
    );
    await expect(write).rejects.toSatisfy(isLostRace);
  });

  it('refuses to remove a vault edited after the read, and keeps its customer', async () => {
    const { db, companyId, field } = await setUp();
    const vault = await buildVault(db, { companyId, fieldId: field.id, customerName: 'KEPT' });
    const state = await readPlacement(db, companyId, vault.id, null);
    await db
      .updateTable('vaults')
      .set({ note: 'edited', version: state.vault!.version + 1 })
      .where('id', '=', vault.id)
      .execute();
    const customers = await countRows(db, 'customers', companyId);
    const removal = writeRemoval(db, { companyId, fields: [state.fields.get(field.id)!] }, state.vault!, {
      companyId,
      userId: null,
      kind: 'vault.deleted',
      entityType: 'vault',
      entityId: vault.id,
    });
    await expect(removal).rejects.toSatisfy(isLostRace);
    expect((await loadVault(db, companyId, vault.id)).note).toBe('edited');
    expect(await countRows(db, 'customers', companyId)).toBe(customers);
  });
});
