import { describe, expect, it } from 'vitest';
import type { FieldDto, VaultDto, WarehouseDto } from '@domain/schemas/warehouse.schema';
import { LastData, memoryKeptStore } from '@/lib/offline-data';
import { keptReceivingFields, proposeOnTablet, shipmentHolds } from './tablet-proposal';

let nextVault = 100;
const vault = (customer: string, position: number): VaultDto => ({
  id: ++nextVault,
  name: `V-${nextVault}`,
  field_id: null,
  field_name: null,
  warehouse_id: null,
  warehouse_name: null,
  customer_id: 1,
  customer_name: customer,
  order_id: null,
  order_name: null,
  note: null,
  type: 'vault',
  position,
  dig_out: 0,
  released_at: null,
  released_by: null,
  version: 1,
  attachments: [],
});

const field = (
  id: number,
  name: string,
  vaults: VaultDto[] = [],
  parts: Partial<FieldDto> = {},
): FieldDto => ({
  id,
  name,
  type: 'vault',
  full: false,
  warehouse_id: 0,
  vaults: Object.fromEntries(vaults.map((v) => [v.id, v])),
  ...parts,
});

const warehouse = (id: number, name: string, fields: FieldDto[]): WarehouseDto =>
  ({
    id,
    name,
    slug: name.toLowerCase(),
    companyId: 1,
    rows: 1,
    cols: fields.length,
    fieldCapacity: 3,
    field_capacity: 3,
    length: 0,
    width: 0,
    warehouseCapacity: 3 * fields.length,
    fieldgridLocation: { x: 0, y: 0 },
    version: 1,
    stats: { vaultCount: 0, realVaultCount: 0, emptyVaultCount: 0, emptyCouchboxCount: 0 },
    fields: Object.fromEntries(fields.map((f) => [f.id, { ...f, warehouse_id: id }])),
    customers: [],
    orders: [],
  }) satisfies WarehouseDto;

const nothingHeld = () => [];

describe('the receiving proposal made on the tablet from its kept warehouses', () => {
  const main = warehouse(1, 'Main', [
    field(11, 'A1'),
    // the customer's field, one slot left
    field(12, 'B1', [vault('acme', 3), vault('OTHER', 2)]),
    field(13, 'C1', [], { full: true }),
    field(14, 'D1', [], { type: 'couchbox-T' }),
    field(15, 'D2', [], { type: 'couchbox-B' }),
  ]);
  const annex = warehouse(2, 'Annex', [field(21, 'A1')]);

  it("keeps the order with the customer's vaults first, fills each field from its highest free slot, and keeps couchboxes apart", () => {
    const fields = keptReceivingFields([annex, main], ' Acme ', nothingHeld);
    const proposal = proposeOnTablet(fields, [
      { type: 'vault', name: 'R-1' },
      { type: 'vault' },
      { type: 'couchbox' },
    ]);
    expect(
      proposal.proposals.map((p) => [p.index, `${p.warehouse_name} ${p.field_name}`, p.position]),
    ).toEqual([
      // B1 holds ACME's vault; its last slot, then the rest of the order in the same warehouse (Main A1, from slot 3)
      [0, 'Main B1', 1],
      [1, 'Main A1', 3],
      [2, 'Main D1', 4],
    ]);
    expect(proposal.unplaced).toEqual([]);
    // the choices to change a field: the proposed ones first; no full field and no couchbox bottom
    expect(proposal.fields.map((f) => `${f.warehouse_name} ${f.field_name} ${f.free}`)).toEqual([
      'Main A1 3',
      'Main B1 1',
      'Main D1 4',
      'Annex A1 3',
    ]);
    expect(proposal.fields.find((f) => f.field_name === 'D1')!.couchbox).toBe(true);
  });

  it("counts the slots this device's waiting changes hold, and says what found no room", () => {
    const small = warehouse(3, 'Small', [field(31, 'A1', [vault('X', 3)])]);
    const fields = keptReceivingFields([small], 'ACME', (id) => (id === 31 ? [2] : []));
    expect(fields[0]!.occupied).toEqual([3, 2]);
    const proposal = proposeOnTablet(fields, [{ type: 'vault' }, { type: 'vault' }]);
    expect(proposal.proposals).toMatchObject([{ index: 0, field_id: 31, position: 1 }]);
    expect(proposal.unplaced).toEqual([1]);
  });

  it('holds the next free slots of the chosen fields for the stored shipment, in shipment order', () => {
    const fields = keptReceivingFields([main], 'ACME', nothingHeld);
    const holds = shipmentHolds(
      fields,
      [{ type: 'vault', name: 'R-1' }, { type: 'vault' }, { type: 'vault' }],
      // the second and third changed to A1 by hand; an unknown field holds nothing on the screen
      { 0: 11, 1: 11, 2: 999 },
      'acme',
    );
    expect(holds).toEqual([
      { fieldId: 11, position: 3, label: 'vault R-1 received' },
      { fieldId: 11, position: 2, label: 'unit of ACME received' },
    ]);
  });

  it("reads the warehouses this device kept for the member's company only", async () => {
    const store = memoryKeptStore();
    const row = (w: WarehouseDto, companyId: number) => ({
      id: JSON.stringify(['warehouse', w.id]),
      queryKey: ['warehouse', w.id],
      data: w,
      updatedAt: 1_000,
      companyId,
    });
    await store.put(row(main, 1));
    await store.put(row(annex, 2));
    await store.put({ ...row(main, 1), id: '["stage"]', queryKey: ['stage'] });
    const kept = await new LastData(store).kept('warehouse', 1);
    expect(kept.map((k) => (k.data as WarehouseDto).name)).toEqual(['Main']);
  });
});
