import { describe, expect, it } from 'vitest';
import type { PrintVaultDto } from '@domain/rules/print-order';
import {
  filterChoices,
  filterVaults,
  filtersFromParams,
  filtersToParams,
  groupByPlacement,
  NO_FILTERS,
} from './print-filters';

let nextId = 0;
const vault = (over: Partial<PrintVaultDto>): PrintVaultDto => ({
  id: (nextId += 1),
  name: `V${nextId}`,
  customer_name: 'SMITH',
  type: 'vault',
  position: 1,
  field_name: 'A1',
  warehouse_name: 'North',
  note: null,
  ...over,
});

const north = vault({ customer_name: 'JOHANSSON', warehouse_name: 'North' });
const south = vault({ customer_name: 'KNOX', warehouse_name: 'South', type: 'liftvan' });
const staged = vault({ customer_name: 'JOHN DOE', warehouse_name: '', field_name: 'staged', position: null });
const all = [staged, north, south];
const orders = new Map([
  [north.id, '24-1030'],
  [south.id, '24-2000'],
  [staged.id, '24-1031'],
]);

describe('Print Studio filters', () => {
  it('lets everything through without filters and keeps the order', () => {
    expect(filterVaults(all, NO_FILTERS)).toEqual(all);
  });

  it('narrows by warehouse (never to staged vaults), type and placement', () => {
    expect(filterVaults(all, { ...NO_FILTERS, warehouse: 'North' })).toEqual([north]);
    expect(filterVaults(all, { ...NO_FILTERS, type: 'liftvan' })).toEqual([south]);
    expect(filterVaults(all, { ...NO_FILTERS, placement: 'staged' })).toEqual([staged]);
    expect(filterVaults(all, { ...NO_FILTERS, placement: 'placed' })).toEqual([north, south]);
  });

  it('matches customer and order anywhere in any case, and combines filters', () => {
    expect(filterVaults(all, { ...NO_FILTERS, customer: ' joh' })).toEqual([staged, north]);
    const orderOf = (id: number) => orders.get(id);
    expect(filterVaults(all, { ...NO_FILTERS, order: '1030' }, orderOf)).toEqual([north]);
    expect(filterVaults(all, { ...NO_FILTERS, order: '24-103' }, orderOf)).toEqual([staged, north]);
    expect(filterVaults(all, { ...NO_FILTERS, order: '24-103', placement: 'placed' }, orderOf)).toEqual([
      north,
    ]);
    expect(filterVaults(all, { ...NO_FILTERS, order: '24' })).toEqual([]);
  });

  it('groups staged vaults apart from placed ones', () => {
    expect(groupByPlacement(all)).toEqual({ placed: [north, south], staged: [staged] });
  });

  it('offers each warehouse and type once, sorted, without the stage', () => {
    expect(filterChoices(all)).toEqual({ warehouses: ['North', 'South'], types: ['liftvan', 'vault'] });
  });

  it('round-trips through the address and ignores an unknown placement', () => {
    const filters = { ...NO_FILTERS, warehouse: 'North', order: '24-1', placement: 'staged' as const };
    expect(filtersFromParams(filtersToParams(filters))).toEqual(filters);
    expect(filtersToParams(NO_FILTERS).toString()).toBe('');
    expect(filtersFromParams(new URLSearchParams('placement=nowhere')).placement).toBe('all');
  });
});
