import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nextFreePosition, topmostPosition } from './capacity';
import { type PlanFieldInput, planPull } from './pull-plan';

const field = (
  fieldId: number,
  fieldName: string,
  vaults: [id: number, position: number, wanted: boolean][],
  warehouse: [id: number, name: string] = [1, 'North'],
): PlanFieldInput => ({
  fieldId,
  fieldName,
  warehouseId: warehouse[0],
  warehouseName: warehouse[1],
  vaults: vaults.map(([id, position, wanted]) => ({ id, position, wanted })),
});

describe('pull plan', () => {
  it('takes off everything above the deepest wanted vault, top-down, and marks what is only in the way', () => {
    const plan = planPull([
      field(1, 'A1', [
        [10, 1, false],
        [11, 2, true],
        [12, 3, false],
      ]),
    ]);
    expect(plan.fields).toHaveLength(1);
    expect(plan.fields[0]!.steps).toEqual([
      { vaultId: 10, position: 1, role: 'in-the-way' },
      { vaultId: 11, position: 2, role: 'pull' },
    ]);
    expect(plan.fields[0]!.putBack).toEqual([10]);
    // off: the one in the way and the wanted one; back: the one in the way
    expect(plan).toMatchObject({ handlings: 3, inTheWay: 1, pulled: 1 });
  });

  it('puts set-aside vaults back last off, first back', () => {
    const plan = planPull([
      field(1, 'A1', [
        [1, 1, false],
        [2, 2, false],
        [3, 3, true],
      ]),
    ]);
    expect(plan.fields[0]!.putBack).toEqual([2, 1]);
  });

  it('walks by warehouse, then in natural field order, and skips fields with nothing wanted', () => {
    const plan = planPull([
      field(5, 'A10', [[50, 1, true]], [2, 'South']),
      field(4, 'B1', [[40, 1, true]], [1, 'North']),
      field(3, 'A2', [[30, 1, true]], [2, 'South']),
      field(2, 'A1', [[20, 1, false]], [1, 'North']),
      field(1, 'A1', [[10, 3, true]], [1, 'North']),
    ]);
    expect(plan.fields.map((f) => `${f.warehouseName}:${f.fieldName}`)).toEqual([
      'North:A1',
      'North:B1',
      'South:A2',
      'South:A10',
    ]);
  });

  it('is empty for no wanted vault', () => {
    expect(planPull([field(1, 'A1', [[1, 1, false]])])).toEqual({
      fields: [],
      handlings: 0,
      inTheWay: 0,
      pulled: 0,
    });
  });
});

interface Stack {
  capacity: number;
  vaults: { id: number; position: number; wanted: boolean }[];
}

/** Warehouses of stacked fields: each stack filled from the bottom (highest position) up, some vaults wanted. */
const stacksArb = fc
  .array(
    fc.integer({ min: 1, max: 6 }).chain((capacity) =>
      fc.record({
        capacity: fc.constant(capacity),
        wanted: fc.array(fc.boolean(), { maxLength: capacity }),
      }),
    ),
    { minLength: 1, maxLength: 12 },
  )
  .map((fields) => {
    let nextId = 1;
    return fields.map(({ capacity, wanted }): Stack => ({
      capacity,
      vaults: wanted.map((w, i) => ({ id: nextId++, position: capacity - i, wanted: w })),
    }));
  });

const inputsOf = (stacks: Stack[]) =>
  stacks.map((s, i) => ({
    fieldId: i + 1,
    fieldName: `A${i + 1}`,
    warehouseId: 1 + (i % 2),
    warehouseName: i % 2 === 0 ? 'Main' : 'Annex',
    vaults: s.vaults,
  }));

describe('pull plan properties', () => {
  it('takes off exactly the vaults at or above the deepest wanted one of each field, none twice, and counts the put-backs', () => {
    fc.assert(
      fc.property(stacksArb, (stacks) => {
        const plan = planPull(inputsOf(stacks));
        let expected = 0;
        for (const stack of stacks) {
          const deepest = Math.max(0, ...stack.vaults.filter((v) => v.wanted).map((v) => v.position));
          const off = stack.vaults.filter((v) => v.position <= deepest);
          expected += off.length + off.filter((v) => !v.wanted).length;
        }
        expect(plan.handlings).toBe(expected);
        const handled = plan.fields.flatMap((f) => f.steps.map((s) => s.vaultId));
        expect(new Set(handled).size).toBe(handled.length);
        const wanted = stacks.flatMap((s) => s.vaults.filter((v) => v.wanted).map((v) => v.id));
        const pulled = plan.fields.flatMap((f) =>
          f.steps.filter((s) => s.role === 'pull').map((s) => s.vaultId),
        );
        expect(pulled.sort((a, b) => a - b)).toEqual(wanted.sort((a, b) => a - b));
        expect(plan.pulled).toBe(wanted.length);
      }),
    );
  });

  it('only ever takes the topmost vault, and after the put-backs every stack is contiguous and within capacity', () => {
    fc.assert(
      fc.property(stacksArb, (stacks) => {
        const plan = planPull(inputsOf(stacks));
        const occupied = stacks.map((s) => new Map(s.vaults.map((v) => [v.position, v.id])));
        for (const planned of plan.fields) {
          const slots = occupied[planned.fieldId - 1]!;
          for (const step of planned.steps) {
            const top = topmostPosition([...slots.keys()]);
            expect(top).not.toBeNull();
            expect(slots.get(top!)).toBe(step.vaultId);
            slots.delete(top!);
          }
          const capacity = stacks[planned.fieldId - 1]!.capacity;
          for (const vaultId of planned.putBack) {
            const free = nextFreePosition([...slots.keys()], capacity);
            expect(free).not.toBeNull();
            slots.set(free!, vaultId);
          }
        }
        stacks.forEach((stack, i) => {
          const positions = [...occupied[i]!.keys()].sort((a, b) => b - a);
          // filled from the bottom with no gap, never past the top slot
          positions.forEach((p, k) => expect(p).toBe(stack.capacity - k));
          const left = stack.vaults.filter(
            (v) => !plan.fields.some((f) => f.steps.some((s) => s.vaultId === v.id && s.role === 'pull')),
          );
          expect(positions).toHaveLength(left.length);
          // the vaults that stay keep their order from the bottom up
          const orderNow = [...occupied[i]!.entries()].sort((a, b) => b[0] - a[0]).map(([, id]) => id);
          expect(orderNow).toEqual(left.sort((a, b) => b.position - a.position).map((v) => v.id));
        });
      }),
    );
  });
});
