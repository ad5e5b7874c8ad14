import { describe, expect, it } from 'vitest';
import {
  COUCHBOX_FIELD_ONLY,
  FIELD_FULL,
  SLOT_TAKEN,
  alreadyInField,
  beyondSlots,
  couchboxBottom,
  couchboxPartnerName,
  decideSlot,
  fieldFull,
  freeSlot,
  freeSlotCount,
  notNextFree,
  plainFieldOnly,
  slotRefusals,
  typeRefusal,
  type SlotField,
} from './slots';

const plain: SlotField = { name: 'A1', type: 'vault', full: false, capacity: 3 };
const top: SlotField = { name: 'B1', type: 'couchbox-T', full: false, capacity: 3 };
const bottom: SlotField = { name: 'B2', type: 'couchbox-B', full: false, capacity: 3 };
const real = (type: string) => ({ type, customerName: 'SMITH' });
const empty = (type: string) => ({ type, customerName: `EMPTY ${type.toUpperCase()}` });

describe('decideSlot: where a unit goes', () => {
  it('puts each plain unit type at the highest free slot of a plain field', () => {
    for (const type of ['vault', 'liftvan', 't2'])
      expect(decideSlot(plain, [3], real(type), 'next')).toEqual({ ok: true, slot: 2 });
    // a gap a delete left fills first
    expect(decideSlot(plain, [3, 1], real('vault'))).toEqual({ ok: true, slot: 2 });
  });

  it('gives a couchbox field one slot more and takes a couchbox there', () => {
    expect(decideSlot(top, [], real('couchbox'), 'next')).toEqual({ ok: true, slot: 4 });
    expect(decideSlot(top, [4], real('couchbox'), 3)).toEqual({ ok: true, slot: 3 });
    expect(decideSlot({ ...top, type: 'couchbox' }, [4, 3], real('couchbox'))).toEqual({ ok: true, slot: 2 });
  });

  it('takes empty placeholders of any kind in a couchbox field, real plain units not', () => {
    for (const type of ['vault', 'liftvan', 't2'])
      expect(decideSlot(top, [], empty(type), 'next')).toEqual({ ok: true, slot: 4 });
    expect(decideSlot(top, [], real('t2'))).toMatchObject({
      ok: false,
      reason: 'wrong-type',
      message: plainFieldOnly('t2', 'B1'),
    });
    expect(plainFieldOnly('t2', 'B1')).toContain('a T2 can only');
  });

  it('refuses a couchbox, even an empty one, in a plain field', () => {
    for (const unit of [real('couchbox'), empty('couchbox')])
      expect(decideSlot(plain, [], unit, 3)).toMatchObject({
        ok: false,
        reason: 'wrong-type',
        message: COUCHBOX_FIELD_ONLY,
      });
  });

  it("refuses a couchbox's lower half before anything else, naming the field", () => {
    for (const unit of [real('vault'), real('couchbox'), empty('liftvan')])
      expect(decideSlot(bottom, [], unit, 'next')).toMatchObject({
        ok: false,
        reason: 'couchbox-bottom',
        message: couchboxBottom('B2'),
      });
  });

  it('refuses a field marked full, with the message of the way the slot was asked for', () => {
    const full = { ...plain, full: true };
    expect(decideSlot(full, [], real('vault'), 3)).toMatchObject({ reason: 'full', message: FIELD_FULL });
    expect(decideSlot(full, [], real('vault'), 'next')).toMatchObject({
      reason: 'full',
      message: fieldFull('A1'),
    });
    expect(decideSlot({ ...plain, full: 1 }, [3], real('vault'))).toMatchObject({
      ok: false,
      reason: 'full',
    });
  });

  it('refuses a field with no free slot left', () => {
    expect(decideSlot(plain, [1, 2, 3], real('vault'), 'next')).toMatchObject({
      reason: 'no-room',
      message: fieldFull('A1'),
    });
    expect(decideSlot(plain, [1, 2, 3], real('vault'), 4)).toMatchObject({
      reason: 'no-room',
      message: FIELD_FULL,
    });
  });

  it('refuses a taken slot, then any slot but the next free one', () => {
    expect(decideSlot(plain, [3], real('vault'), 3)).toMatchObject({ reason: 'taken', message: SLOT_TAKEN });
    expect(decideSlot(plain, [3], real('vault'), 1)).toMatchObject({
      reason: 'not-next',
      message: notNextFree(1, 'A1', 2),
      next: 2,
    });
    // a slot beyond the field is named by the API as not the next free one
    expect(decideSlot(plain, [], real('vault'), 7)).toMatchObject({
      reason: 'not-next',
      message: notNextFree(7, 'A1', 3),
    });
  });

  it('moves a unit within its own field as if its slot were free, but not to the next slot of that field', () => {
    const held = { ...real('vault'), heldSlot: 2 };
    expect(decideSlot(plain, [3, 2], held, 2)).toEqual({ ok: true, slot: 2 });
    expect(decideSlot(plain, [3, 2], held, 'next')).toMatchObject({
      reason: 'already-here',
      message: alreadyInField('A1'),
    });
  });

  it('uses the default capacity when the warehouse has none', () => {
    expect(decideSlot({ ...plain, capacity: null }, [], real('vault'))).toEqual({ ok: true, slot: 3 });
  });
});

describe('slotRefusals: every rule a placement breaks', () => {
  it('lists the kind of field, the slot and the position beyond the field in order', () => {
    const reasons = slotRefusals({ ...plain, full: true }, [1, 2, 3], real('couchbox'), 5).map(
      (r) => r.reason,
    );
    expect(reasons).toEqual(['wrong-type', 'full', 'beyond', 'no-room']);
    const beyond = slotRefusals(top, [], real('couchbox'), 6).find((r) => r.reason === 'beyond');
    expect(beyond?.message).toBe(beyondSlots(6, 'B1', 4));
    expect(beyond?.slots).toBe(4);
  });

  it('does not also call a lower half the wrong kind of field', () => {
    expect(slotRefusals(bottom, [], real('couchbox'), 1).map((r) => r.reason)).toEqual([
      'couchbox-bottom',
      'beyond',
      'no-room',
    ]);
  });

  it('finds nothing wrong with the next free slot', () => {
    expect(slotRefusals(plain, [3], real('vault'), 2)).toEqual([]);
  });
});

describe('free slots and couchbox partners', () => {
  it('offers the next free slot and counts the free ones, none when full or a lower half', () => {
    expect(freeSlot(plain, [3])).toBe(2);
    expect(freeSlot(top, [])).toBe(4);
    expect(freeSlot({ ...plain, full: true }, [])).toBeNull();
    expect(freeSlot(bottom, [])).toBeNull();
    expect(freeSlotCount(plain, [3])).toBe(2);
    expect(freeSlotCount(top, [4, 4])).toBe(3);
    expect(freeSlotCount({ ...plain, full: 1 }, [])).toBe(0);
    expect(freeSlotCount(bottom, [])).toBe(0);
  });

  it("names a field's couchbox partner: below a top half or plain field, above a lower half", () => {
    expect(couchboxPartnerName(top)).toBe('B2');
    expect(couchboxPartnerName(plain)).toBe('A2');
    expect(couchboxPartnerName(bottom)).toBe('B1');
    expect(couchboxPartnerName({ name: 'C1', type: 'couchbox-B' })).toBeNull();
    expect(couchboxPartnerName({ name: 'staged', type: 'vault' })).toBeNull();
  });

  it('checks a type where it stands, for an edit', () => {
    expect(typeRefusal(top, real('vault'))).toBe(plainFieldOnly('vault', 'B1'));
    expect(typeRefusal(top, empty('vault'))).toBeNull();
    expect(typeRefusal(plain, real('liftvan'))).toBeNull();
  });
});
