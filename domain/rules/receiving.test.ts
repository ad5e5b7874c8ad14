import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nextFreePosition } from './capacity';
import { type ReceivingField, proposeSlots } from './receiving';

const field = (fieldId: number, fieldName: string, extra: Partial<ReceivingField> = {}): ReceivingField => ({
  fieldId,
  fieldName,
  warehouseId: 1,
  warehouseName: 'Main',
  type: 'vault',
  full: false,
  capacity: 3,
  occupied: [],
  customerVaults: 0,
  ...extra,
});

describe('receiving proposal', () => {
  it("goes next to the customer's vaults first, filling each field from its next free slot", () => {
    const { proposals, unplaced } = proposeSlots(
      [field(1, 'A1'), field(2, 'A2', { occupied: [3], customerVaults: 1 }), field(3, 'A3')],
      ['vault', 'vault', 'vault'],
    );
    expect(unplaced).toEqual([]);
    expect(proposals).toEqual([
      { index: 0, fieldId: 2, position: 2 },
      { index: 1, fieldId: 2, position: 1 },
      { index: 2, fieldId: 1, position: 3 },
    ]);
  });

  it('puts couchboxes only in couchbox fields and nothing else there', () => {
    const { proposals, unplaced } = proposeSlots(
      [
        field(1, 'A1', { type: 'couchbox-T', capacity: 4 }),
        field(2, 'A2', { type: 'couchbox-B', capacity: 0 }),
        field(3, 'B1'),
      ],
      ['couchbox', 'vault', 'couchbox'],
    );
    expect(unplaced).toEqual([]);
    expect(proposals.map((p) => [p.index, p.fieldId])).toEqual([
      [0, 1],
      [1, 3],
      [2, 1],
    ]);
  });

  it('keeps an order in one field when one has room for all of it, and says what did not fit', () => {
    const fields = [field(1, 'A1', { occupied: [3] }), field(2, 'A2'), field(3, 'A3', { full: true })];
    expect(new Set(proposeSlots(fields, ['vault', 't2', 'liftvan']).proposals.map((p) => p.fieldId))).toEqual(
      new Set([2]),
    );
    expect(proposeSlots(fields, Array(6).fill('vault')).unplaced).toEqual([5]);
  });
});

const fieldsArb = fc
  .array(
    fc.record({
      type: fc.constantFrom('vault', 'vault', 'couchbox-T', 'couchbox-B'),
      capacity: fc.integer({ min: 1, max: 5 }),
      fill: fc.integer({ min: 0, max: 5 }),
      full: fc.integer({ min: 0, max: 4 }).map((n) => n === 0),
      warehouse: fc.integer({ min: 1, max: 3 }),
    }),
    { minLength: 1, maxLength: 15 },
  )
  .map((specs) =>
    specs.map((s, i) => {
      const capacity = s.type === 'couchbox-T' ? s.capacity + 1 : s.type === 'couchbox-B' ? 0 : s.capacity;
      const occupied: number[] = [];
      for (let k = 0; k < Math.min(s.fill, capacity); k++) occupied.push(capacity - k);
      return field(i + 1, `A${i + 1}`, {
        type: s.type,
        capacity,
        occupied,
        full: s.full,
        warehouseId: s.warehouse,
        warehouseName: `W${s.warehouse}`,
      });
    }),
  );
const itemsArb = fc.array(fc.constantFrom('vault', 'liftvan', 't2', 'couchbox'), { maxLength: 30 });

describe('receiving proposal properties', () => {
  it('never breaks a slot rule: each proposal is the next free slot of its field as they are taken, by type', () => {
    fc.assert(
      fc.property(fieldsArb, itemsArb, (fields, items) => {
        const { proposals, unplaced } = proposeSlots(fields, items);
        expect(proposals.length + unplaced.length).toBe(items.length);
        const taken = new Map(fields.map((f) => [f.fieldId, [...f.occupied]]));
        // stored in the order the server stores them: per field, highest position first
        const ordered = [...proposals].sort((a, b) => a.fieldId - b.fieldId || b.position - a.position);
        for (const p of ordered) {
          const f = fields.find((x) => x.fieldId === p.fieldId)!;
          expect(f.full).toBe(false);
          expect(f.type).not.toBe('couchbox-B');
          expect(items[p.index] === 'couchbox').toBe(f.type === 'couchbox-T');
          expect(p.position).toBe(nextFreePosition(taken.get(f.fieldId)!, f.capacity));
          taken.get(f.fieldId)!.push(p.position);
        }
      }),
    );
  });

  it('keeps a shipment in as few fields as possible when the customer has no vaults yet', () => {
    fc.assert(
      fc.property(fieldsArb, fc.integer({ min: 0, max: 25 }), (fields, n) => {
        const items = Array<string>(n).fill('vault');
        const { proposals, unplaced } = proposeSlots(fields, items);
        const frees = fields
          .filter((f) => f.type === 'vault' && !f.full)
          .map((f) => f.capacity - f.occupied.length)
          .sort((a, b) => b - a);
        const room = frees.reduce((s, x) => s + x, 0);
        expect(unplaced.length).toBe(Math.max(0, n - room));
        let least = 0;
        for (let sum = 0; sum < Math.min(n, room); least++) sum += frees[least]!;
        expect(new Set(proposals.map((p) => p.fieldId)).size).toBe(least);
      }),
    );
  });
});
