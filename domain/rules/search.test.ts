import { describe, expect, it } from 'vitest';
import type { WarehouseDto } from '../schemas/warehouse.schema';
import {
  buildRackSearchIndex,
  buildVaultSearchIndex,
  matchingFieldIds,
  matchingRacksAndPallets,
  suggest,
  type SearchableRack,
} from './search';

type Fields = Pick<WarehouseDto, 'fields'>;

function warehouseWith(
  vaults: { field: number; customer: string; order: string | null; name: string | null }[],
): Fields {
  const fields: Record<number, { id: number; vaults: Record<number, object> }> = {};
  vaults.forEach((v, i) => {
    fields[v.field] ??= { id: v.field, vaults: {} };
    fields[v.field]!.vaults[i + 1] = {
      id: i + 1,
      customer_name: v.customer,
      order_name: v.order,
      name: v.name,
    };
  });
  return { fields } as unknown as Fields;
}

const warehouse = warehouseWith([
  { field: 1, customer: 'SMITH', order: 'ORD-10', name: 'V-1' },
  { field: 1, customer: 'SMITH', order: 'ORD-2', name: 'V-2' },
  { field: 2, customer: 'KNOX', order: 'ORD-2', name: null },
  { field: 3, customer: 'EMPTY VAULT', order: null, name: 'V-30' },
]);

const racks: SearchableRack[] = [
  { id: 7, shelves: [{ pallets: [{ id: 70, customerName: 'PAULA', name: 'SOFA', palletNumber: 'P-1' }] }] },
  {
    id: 8,
    shelves: [
      { pallets: [{ id: 80, customerName: 'OTTO', name: null, palletNumber: null }] },
      { pallets: [] },
    ],
  },
];

describe('vault search index', () => {
  it('holds each name once per type, customers first, then orders and vaults, in natural order', () => {
    const index = buildVaultSearchIndex(warehouse);
    expect(index.entries.map((e) => `${e.type}:${e.name}`)).toEqual([
      'customer:EMPTY VAULT',
      'customer:KNOX',
      'customer:SMITH',
      'order:ORD-2',
      'order:ORD-10',
      'vault:V-1',
      'vault:V-2',
      'vault:V-30',
    ]);
  });

  it('suggests by case-insensitive substring, nothing for a blank term, and stops at the limit', () => {
    const index = buildVaultSearchIndex(warehouse);
    expect(suggest(index, 'sm')).toEqual([{ name: 'SMITH', type: 'customer' }]);
    expect(suggest(index, 'ord-1')).toEqual([{ name: 'ORD-10', type: 'order' }]);
    expect(suggest(index, '2')).toEqual([
      { name: 'ORD-2', type: 'order' },
      { name: 'V-2', type: 'vault' },
    ]);
    expect(suggest(index, '   ')).toEqual([]);
    expect(suggest(index, 'zzz')).toEqual([]);
    expect(suggest(index, 'v', 2)).toHaveLength(2);
  });

  it('tells with each vault number how many vaults stand above it in its field', () => {
    const stacked = {
      fields: {
        1: {
          id: 1,
          vaults: {
            1: { id: 1, customer_name: 'A', order_name: 'O', name: 'TOP', position: 1 },
            2: { id: 2, customer_name: 'A', order_name: 'O', name: 'LOW', position: 3 },
          },
        },
      },
    } as unknown as Fields;
    const index = buildVaultSearchIndex(stacked);
    expect(suggest(index, 'top')).toEqual([{ name: 'TOP', type: 'vault', digOut: 0 }]);
    expect(suggest(index, 'low')).toEqual([{ name: 'LOW', type: 'vault', digOut: 1 }]);
  });

  it('matches fields by the exact customer, order or vault number', () => {
    expect([...matchingFieldIds(warehouse, { name: 'SMITH', type: 'customer' })]).toEqual([1]);
    expect([...matchingFieldIds(warehouse, { name: 'ORD-2', type: 'order' })].sort()).toEqual([1, 2]);
    expect([...matchingFieldIds(warehouse, { name: 'V-30', type: 'vault' })]).toEqual([3]);
    expect(matchingFieldIds(warehouse, { name: 'SMI', type: 'customer' }).size).toBe(0);
  });
});

describe('rack search index', () => {
  it('offers pallet customers, then pallet names and numbers', () => {
    const index = buildRackSearchIndex(racks);
    expect(index.entries.map((e) => `${e.type}:${e.name}`)).toEqual([
      'customer:OTTO',
      'customer:PAULA',
      'pallet:P-1',
      'pallet:SOFA',
    ]);
  });

  it("also offers the warehouse's vault numbers, after the pallets", () => {
    const index = buildRackSearchIndex(racks, warehouse);
    expect(index.entries.map((e) => `${e.type}:${e.name}`)).toEqual([
      'customer:OTTO',
      'customer:PAULA',
      'vault:V-1',
      'vault:V-2',
      'vault:V-30',
      'pallet:P-1',
      'pallet:SOFA',
    ]);
    expect(suggest(index, 'v-3')).toEqual([{ name: 'V-30', type: 'vault' }]);
  });

  it('matches pallets and their racks by customer ignoring case, or by pallet name or number', () => {
    expect(matchingRacksAndPallets(racks, { name: 'paula', type: 'customer' })).toEqual({
      rackIds: new Set([7]),
      palletIds: new Set([70]),
    });
    expect(matchingRacksAndPallets(racks, { name: 'P-1', type: 'pallet' }).palletIds).toEqual(new Set([70]));
    expect(matchingRacksAndPallets(racks, { name: 'nobody', type: 'customer' }).rackIds.size).toBe(0);
  });
});
