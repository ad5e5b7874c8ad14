import type { Db } from '../server/db/database';
import { nowIso } from '../server/db/database';
import { buildAccount } from '../server/factories';
import { insertMany } from './dataset.repo';

export interface DatasetShape {
  companies: number;
  warehousesPerCompany: number;
  cols: number;
  rows: number;
  fieldCapacity: number;
  fillRatio: number;
  stagedPerCompany: number;
  racksPerWarehouse: number;
  shelvesPerRack: number;
  slotsPerShelf: number;
}

export const LARGE_DATASET: DatasetShape = {
  companies: 2,
  warehousesPerCompany: 10,
  cols: 30,
  rows: 20,
  fieldCapacity: 3,
  fillRatio: 0.8,
  stagedPerCompany: 300,
  racksPerWarehouse: 40,
  shelvesPerRack: 3,
  slotsPerShelf: 6,
};

export interface GeneratedCompany {
  companyId: number;
  email: string;
  password: string;
  warehouseIds: number[];
  vaultCount: number;
}

// a fixed-seed generator so every run builds the same data
function random(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1_103_515_245 + 12_345) % 2_147_483_648;
    return s / 2_147_483_648;
  };
}

const CHECKLIST_TASKS = [
  'Are all incoming/outgoing shipments labeled?',
  'Is equipment put back in its designated location?',
  'Is everything swept and organized?',
];

const SURNAMES = [
  'SMITH',
  'JOHNSON',
  'GARCIA',
  'MILLER',
  'DAVIS',
  'LOPEZ',
  'WILSON',
  'ANDERSON',
  'TAYLOR',
  'THOMAS',
  'MOORE',
  'JACKSON',
  'MARTIN',
  'LEE',
  'THOMPSON',
  'WHITE',
  'HARRIS',
  'CLARK',
  'LEWIS',
  'WALKER',
];

/** A large, realistic dataset: companies with big warehouses, ~80 % full, staged vaults, racks with pallets, checklists. */
export async function generateDataset(
  db: Db,
  shape: DatasetShape = LARGE_DATASET,
): Promise<GeneratedCompany[]> {
  const rnd = random(42);
  const pick = <T>(list: readonly T[]) => list[Math.floor(rnd() * list.length)]!;
  const out: GeneratedCompany[] = [];
  const now = nowIso();
  for (let c = 0; c < shape.companies; c++) {
    const account = await buildAccount(db, {
      company: `Bench Movers ${c + 1}`,
      email: `bench${c + 1}@bench.test`,
      password: 'bench-password-1',
    });
    const companyId = account.companyId;
    const customerNames = Array.from({ length: 1500 }, (_, i) => `${pick(SURNAMES)} ${i + 1}`);
    const customerIds = await insertMany(
      db,
      'customers',
      customerNames.map((name) => ({ company_id: companyId, name })),
    );
    const orderIds = await insertMany(
      db,
      'orders',
      Array.from({ length: 3000 }, (_, i) => ({ company_id: companyId, name: String(100_000 + i) })),
    );
    const warehouseIds: number[] = [];
    let vaultCount = 0;
    for (let w = 0; w < shape.warehousesPerCompany; w++) {
      const [warehouseId] = await insertMany(db, 'warehouses', [
        {
          company_id: companyId,
          name: `Warehouse ${w + 1}`,
          slug: `warehouse-${w + 1}`,
          rows: shape.rows,
          cols: shape.cols,
          field_capacity: shape.fieldCapacity,
          length: shape.rows * 5 + 120,
          width: shape.cols * 5 + 60,
          grid_x: 10,
          grid_y: 10,
          created_at: now,
        },
      ]);
      warehouseIds.push(warehouseId!);
      const cells: { col: number; row: number }[] = [];
      for (let col = 1; col <= shape.cols; col++)
        for (let row = 1; row <= shape.rows; row++) cells.push({ col, row });
      const fieldIds = await insertMany(
        db,
        'fields',
        cells.map(({ col, row }) => ({
          company_id: companyId,
          warehouse_id: warehouseId!,
          col,
          row,
          type: 'vault',
          full: 0,
        })),
      );
      const vaults: Parameters<typeof insertMany<'vaults'>>[2] = [];
      const total = fieldIds.length * shape.fieldCapacity;
      let placed = 0;
      for (const fieldId of fieldIds) {
        // fill each field from its bottom slot upward; most fields full, some partly, a few empty
        const r = rnd();
        const count = r < 0.6 ? shape.fieldCapacity : r < 0.85 ? shape.fieldCapacity - 1 : r < 0.95 ? 1 : 0;
        for (let k = 0; k < count && placed < total * shape.fillRatio; k++) {
          const empty = rnd() < 0.05;
          vaults.push({
            company_id: companyId,
            name: String(1000 + vaultCount + vaults.length),
            customer_id: empty ? customerIds[0]! : pick(customerIds),
            order_id: empty ? null : pick(orderIds),
            field_id: fieldId,
            position: shape.fieldCapacity - k,
            type: 'vault',
            note: rnd() < 0.1 ? 'Fragile: handle with care' : null,
            created_at: now,
            updated_at: now,
          });
          placed += 1;
        }
      }
      await insertMany(db, 'vaults', vaults);
      vaultCount += vaults.length;

      const rackIds = await insertMany(
        db,
        'racks',
        Array.from({ length: shape.racksPerWarehouse }, (_, r) => ({
          company_id: companyId,
          warehouse_id: warehouseId!,
          name: `R${r + 1}`,
          orientation: 'horizontal',
          width: 12,
          length: 4,
          x: (r % 8) * 14,
          y: shape.rows * 5 + 20 + Math.floor(r / 8) * 8,
          capacity: shape.slotsPerShelf,
          created_at: now,
        })),
      );
      const shelfIds = await insertMany(
        db,
        'shelves',
        rackIds.flatMap((rackId) =>
          Array.from({ length: shape.shelvesPerRack }, (_, s) => ({
            company_id: companyId,
            rack_id: rackId,
            position: s + 1,
            capacity: shape.slotsPerShelf,
          })),
        ),
      );
      await insertMany(
        db,
        'pallets',
        shelfIds.flatMap((shelfId) =>
          Array.from({ length: shape.slotsPerShelf }, (_, slot) => slot)
            .filter(() => rnd() < 0.8)
            .map((slot) => ({
              company_id: companyId,
              shelf_id: shelfId,
              customer_id: pick(customerIds),
              name: `PALLET ${slot + 1}`,
              pallet_number: `P-${shelfId}-${slot}`,
              notes: null,
              weight: Math.round(rnd() * 500),
              shelf_spots: 1,
              slot_index: slot,
              created_at: now,
            })),
        ),
      );
      const [checklistId] = await insertMany(db, 'checklists', [
        {
          company_id: companyId,
          warehouse_id: warehouseId!,
          description: 'Daily cleaning',
          is_active: 1,
          filled_out_by: null,
          created_at: now,
        },
      ]);
      await insertMany(
        db,
        'checklist_tasks',
        CHECKLIST_TASKS.map((text, i) => ({
          company_id: companyId,
          checklist_id: checklistId!,
          position: i + 1,
          text,
          completed: 0,
        })),
      );
    }
    const staged = Array.from({ length: shape.stagedPerCompany }, (_, i) => ({
      company_id: companyId,
      name: `S${i + 1}`,
      customer_id: pick(customerIds),
      order_id: pick(orderIds),
      field_id: null,
      position: null,
      type: 'vault',
      note: null,
      created_at: now,
      updated_at: now,
    }));
    await insertMany(db, 'vaults', staged);
    out.push({ companyId, email: account.email, password: account.password, warehouseIds, vaultCount });
  }
  return out;
}
