import { fieldGridSize } from '@domain/rules/field-grid-floor';
import { type NamedRect, placementProblem, rackFootprint } from '@domain/rules/rack-placement';
import { dayOf, isoOf } from '@domain/billing/days';
import { type Db, nowIso } from '../../db/database';
import { setMoveIn } from '../vaults/move-in.repo';
import { findWarehouse } from '../warehouses/warehouses.repo';
import { buildPallet, buildRack } from './racks.factories';

const CUSTOMERS = [
  'KNOX',
  'ZANG',
  'OFFICE FURNITURE',
  'HARTLEY',
  'MORRISON',
  'CHEN',
  'PATEL',
  "O'BRIEN",
  'GARCIA',
  'LINDQVIST',
];
const CONTENTS = [
  'SOFA',
  'DINING TABLE',
  'BOXES',
  'PIANO',
  'MATTRESS SET',
  'BOOKCASE',
  'ARTWORK CRATE',
  'DESK',
  'BIKE',
  'WARDROBE',
];

interface DemoRack {
  name: string;
  width: number;
  length: number;
  orientation: 'horizontal' | 'vertical';
  capacity: number;
  /** share of slots holding pallets, per shelf from the top */
  fill: [number, number, number];
}

// one full rack, one more than half full, the rest lighter, so every rack colour shows
const DEMO_RACKS: DemoRack[] = [
  { name: 'Rack A', width: 12, length: 4, orientation: 'horizontal', capacity: 4, fill: [1, 1, 1] },
  { name: 'Rack B', width: 12, length: 4, orientation: 'horizontal', capacity: 5, fill: [1, 0.6, 0.6] },
  { name: 'Rack C', width: 16, length: 4, orientation: 'vertical', capacity: 6, fill: [0.5, 0.34, 0] },
  { name: 'Rack D', width: 12, length: 4, orientation: 'vertical', capacity: 4, fill: [0.25, 0.5, 0] },
  { name: 'Overflow', width: 8, length: 4, orientation: 'horizontal', capacity: 3, fill: [0, 0.34, 0] },
];

/** The first spot, scanning the floor in 2 ft steps, where the rack neither collides nor covers the vault block. */
function findSpot(
  size: { width: number; length: number },
  floor: { width: number; length: number },
  taken: NamedRect[],
) {
  for (let y = 2; y + size.length <= floor.length; y += 2) {
    for (let x = 2; x + size.width <= floor.width; x += 2) {
      const rect = { x, y, ...size };
      if (!placementProblem(rect, floor, taken)) return rect;
    }
  }
  return null;
}

/** Days before the seeding a pallet moved in: spread over the last half year by its serial, the same every seeding. */
const palletDaysAgo = (serial: number) => 4 + ((serial * 37) % 170);

/** Demo racks with shelves and pallets in the demo warehouses, each pallet moved in on its day before `seedDay`. */
export async function seedDemoRacks(
  db: Db,
  companyId: number,
  warehouseIds: number[],
  seedDay = nowIso().slice(0, 10),
): Promise<void> {
  let serial = 100;
  const moveIns = new Map<number, number[]>();
  for (const [index, warehouseId] of warehouseIds.slice(0, 2).entries()) {
    const warehouse = await findWarehouse(db, companyId, warehouseId);
    if (!warehouse || !(warehouse.width > 0 && warehouse.length > 0)) continue;
    const floor = { width: warehouse.width, length: warehouse.length };
    // the vault block counts as taken floor, with a 2 ft aisle around it
    const block = fieldGridSize(warehouse);
    const taken: NamedRect[] = [
      {
        x: warehouse.grid_x - 2,
        y: warehouse.grid_y - 2,
        width: block.width + 4,
        length: block.length + 4,
      },
    ];
    const racks = index === 0 ? DEMO_RACKS : DEMO_RACKS.slice(2, 4);
    for (const demo of racks) {
      const spot = findSpot(rackFootprint(demo), floor, taken);
      if (!spot) continue;
      // an aisle around each rack as well
      taken.push({ x: spot.x - 2, y: spot.y - 2, width: spot.width + 4, length: spot.length + 4 });
      const rack = await buildRack(db, {
        companyId,
        warehouseId,
        name: demo.name,
        x: spot.x,
        y: spot.y,
        width: demo.width,
        length: demo.length,
        orientation: demo.orientation,
        shelves: 3,
        capacity: demo.capacity,
      });
      for (const [shelfIndex, shelfId] of rack.shelfIds.entries()) {
        let wanted = Math.round(demo.capacity * demo.fill[shelfIndex]!);
        let slot = 0;
        while (wanted > 0) {
          // now and then a pallet takes two slots
          const spots = wanted >= 2 && serial % 4 === 0 ? 2 : 1;
          serial += 1;
          const palletId = await buildPallet(db, {
            companyId,
            shelfId,
            customer: CUSTOMERS[serial % CUSTOMERS.length]!,
            name: CONTENTS[(serial * 3) % CONTENTS.length]!,
            palletNumber: `P-${serial}`,
            slotIndex: slot,
            spots,
            weight: 150 + ((serial * 37) % 600),
          });
          const daysAgo = palletDaysAgo(serial);
          moveIns.set(daysAgo, [...(moveIns.get(daysAgo) ?? []), palletId]);
          slot += spots;
          wanted -= spots;
        }
      }
    }
  }
  for (const [daysAgo, ids] of moveIns)
    await setMoveIn(db, companyId, 'pallets', ids, `${isoOf(dayOf(seedDay) - daysAgo)}T15:00:00.000Z`);
}
