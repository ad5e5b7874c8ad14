import { dayOf, isoOf } from '@domain/billing/days';
import { type Db, nowIso } from '../../db/database';
import { setMoveIn } from '../vaults/move-in.repo';
import { makeCouchbox, markFieldFull } from '../fields/fields.factories';
import { buildStagedVault, buildVault } from '../vaults/vaults.factories';
import { buildWarehouse } from './warehouses.factories';

interface DemoVault {
  customer: string;
  order?: string;
  number?: string;
  type?: 'vault' | 'liftvan' | 't2' | 'couchbox';
  note?: string;
}

// field name -> its stack from the bottom (first placed) up; the first three fill C1 as the original demo did
const MAIN_STACKS: Record<string, DemoVault[]> = {
  C1: [
    { customer: 'KNOX', order: '24-1001', number: '144' },
    { customer: 'ZANG', order: '24-1002', number: '266' },
    {
      customer: 'OFFICE FURNITURE',
      order: '24-1003',
      number: '176',
      note: 'Desks and filing cabinets, floor 3',
    },
  ],
  A1: [{ customer: 'HARRISON', order: '24-1010', number: '201' }],
  A2: [
    { customer: 'MARTINEZ', order: '24-1011', number: '202' },
    { customer: 'MARTINEZ', order: '24-1011', number: '203', note: 'Fragile: china and glassware' },
  ],
  B3: [
    { customer: 'NGUYEN', order: '24-1020', number: '310' },
    { customer: 'KOWALSKI', order: '24-1021', number: '311' },
    { customer: 'PATEL', order: '24-1022', number: '312' },
  ],
  B5: [{ customer: 'EMPTY VAULT', number: '318' }],
  D2: [
    { customer: 'JOHANSSON', order: '24-1030', number: '402' },
    { customer: 'EMPTY LIFTVAN', type: 'liftvan' },
  ],
  D8: [{ customer: 'EMPTY T2', type: 't2' }],
  E6: [
    { customer: 'WASHINGTON', order: '24-1040', number: '520' },
    { customer: 'WASHINGTON', order: '24-1040', number: '521' },
  ],
  F4: [{ customer: 'ABERNATHY', order: '24-1050', number: '604', note: 'Piano, climate sensitive' }],
  G10: [
    { customer: 'CHEN', order: '24-1060', number: '710' },
    { customer: 'EMPTY VAULT', number: '711' },
    { customer: 'OKAFOR', order: '24-1061', number: '712' },
  ],
  H12: [{ customer: 'EMPTY VAULT', number: '812' }],
};

const ANNEX_STACKS: Record<string, DemoVault[]> = {
  A1: [
    { customer: 'FITZGERALD', order: '24-2001', number: 'A-11' },
    { customer: 'FITZGERALD', order: '24-2001', number: 'A-12' },
  ],
  B3: [{ customer: 'ROSSI', order: '24-2010', number: 'A-23' }],
  C2: [{ customer: 'EMPTY VAULT', number: 'A-32' }],
};

// The demo's past: how many days before the seeding each order's units moved in (an order's units came in together),
// spread over half a year; the SIT household (24-1001) came in 75 days ago, the staged ones this week.
const MOVED_IN_DAYS_AGO: Record<string, number> = {
  '24-1001': 75,
  '24-1002': 168,
  '24-1003': 181,
  '24-1010': 142,
  '24-1011': 121,
  '24-1020': 97,
  '24-1021': 63,
  '24-1022': 44,
  '24-1030': 156,
  '24-1040': 133,
  '24-1050': 110,
  '24-1060': 86,
  '24-1061': 29,
  '24-1070': 52,
  '24-1080': 3,
  '24-1081': 1,
  '24-2001': 17,
  '24-2010': 9,
};
/** the empty vaults, liftvans and couchboxes were there before the first customer */
const EMPTIES_DAYS_AGO = 190;

/** Vault ids by the days before the seeding they moved in. */
type MoveIns = Map<number, number[]>;

function noteMoveIn(moveIns: MoveIns, order: string | undefined, vaultId: number) {
  const daysAgo = (order === undefined ? undefined : MOVED_IN_DAYS_AGO[order]) ?? EMPTIES_DAYS_AGO;
  moveIns.set(daysAgo, [...(moveIns.get(daysAgo) ?? []), vaultId]);
}

/** Dates each vault to its move-in day (mid-afternoon UTC), counted back from the seeding day. */
async function writeMoveIns(db: Db, companyId: number, moveIns: MoveIns, seedDay: string) {
  for (const [daysAgo, ids] of moveIns)
    await setMoveIn(db, companyId, 'vaults', ids, `${isoOf(dayOf(seedDay) - daysAgo)}T14:00:00.000Z`);
}

async function fillStacks(
  db: Db,
  companyId: number,
  field: (name: string) => { id: number },
  stacks: Record<string, DemoVault[]>,
  moveIns: MoveIns,
) {
  for (const [name, stack] of Object.entries(stacks)) {
    for (const v of stack) {
      const vault = await buildVault(db, {
        companyId,
        fieldId: field(name).id,
        customerName: v.customer,
        orderName: v.order,
        name: v.number,
        type: v.type,
        note: v.note,
      });
      noteMoveIn(moveIns, v.order, vault.id);
    }
  }
}

/**
 * Demo warehouses with fields, vaults in varied states, a couchbox pair and staged vaults, each vault moved in on its
 * day of the last half year before `seedDay` (today); answers the warehouse ids.
 */
export async function seedDemoWarehouses(
  db: Db,
  companyId: number,
  seedDay = nowIso().slice(0, 10),
): Promise<number[]> {
  const moveIns: MoveIns = new Map();
  const main = await buildWarehouse(db, {
    companyId,
    name: 'Main Warehouse',
    cols: 9,
    rows: 12,
    fieldCapacity: 3,
    length: 100,
    width: 100,
    gridX: 10,
    gridY: 10,
  });
  await fillStacks(db, companyId, main.field, MAIN_STACKS, moveIns);

  // C4 becomes a double-height couchbox (C5 its hidden lower half) holding an empty and a real couchbox
  await makeCouchbox(db, { companyId, fieldId: main.field('C4').id });
  const emptyCouchbox = await buildVault(db, {
    companyId,
    fieldId: main.field('C4').id,
    customerName: 'EMPTY COUCHBOX',
    type: 'couchbox',
  });
  noteMoveIn(moveIns, undefined, emptyCouchbox.id);
  const couchbox = await buildVault(db, {
    companyId,
    fieldId: main.field('C4').id,
    customerName: 'DELACROIX',
    orderName: '24-1070',
    name: '455',
    type: 'couchbox',
  });
  noteMoveIn(moveIns, '24-1070', couchbox.id);

  // F4 holds one vault but the crew marked it full (an oversized piano crate)
  await markFieldFull(db, { companyId, fieldId: main.field('F4').id });

  const annex = await buildWarehouse(db, {
    companyId,
    name: 'Annex',
    cols: 4,
    rows: 6,
    fieldCapacity: 3,
    length: 40,
    width: 60,
    gridX: 5,
    gridY: 5,
  });
  await fillStacks(db, companyId, annex.field, ANNEX_STACKS, moveIns);

  const brennan = await buildStagedVault(db, {
    companyId,
    customerName: 'BRENNAN',
    orderName: '24-1080',
    name: '901',
    note: 'Arrived Monday, awaiting placement',
  });
  noteMoveIn(moveIns, '24-1080', brennan.id);
  const yamamoto = await buildStagedVault(db, {
    companyId,
    customerName: 'YAMAMOTO',
    orderName: '24-1081',
    name: '902',
  });
  noteMoveIn(moveIns, '24-1081', yamamoto.id);
  const empty = await buildStagedVault(db, { companyId, customerName: 'EMPTY VAULT', name: '903' });
  noteMoveIn(moveIns, undefined, empty.id);

  await writeMoveIns(db, companyId, moveIns, seedDay);
  return [main.id, annex.id];
}
