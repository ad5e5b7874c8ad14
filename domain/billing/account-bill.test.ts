import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type AccountBill,
  type BilledBefore,
  billAccount,
  billedFrom,
  type BilledUnit,
  unbilledStays,
  unitKeyOf,
  withLateLines,
} from './account-bill';
import { type Period, periodHolding } from './charges';
import { dayOf, dayWriter, nextMonthStart } from './days';
import type { RateRow } from './rates';

const rate = (kind: RateRow['kind'], amount: number): RateRow => ({
  kind,
  unitType: kind === 'valuation' ? null : 'vault',
  warehouseId: null,
  accountId: null,
  from: dayOf('2020-01-01'),
  amount,
});
const terms = {
  rates: [rate('storage', 3_100), rate('handling-in', 500), rate('valuation', 60)],
  taxBasisPoints: 0,
  minorDigits: 2,
};

/** What a set of issued bills billed, as the run reads it back from their lines. */
const billedBy = (bills: readonly AccountBill[]): BilledBefore =>
  billedFrom(bills.flatMap((b) => [...b.lines, ...b.agencyLines]));

describe('what earlier invoices billed is left out', () => {
  it('takes billed ranges out of a stay, keeping an open end open', () => {
    expect(unbilledStays({ moveIn: 10, moveOut: null }, [])).toEqual([{ moveIn: 10, moveOut: null }]);
    expect(
      unbilledStays({ moveIn: 10, moveOut: null }, [
        { from: 20, to: 25 },
        { from: 0, to: 12 },
      ]),
    ).toEqual([
      { moveIn: 12, moveOut: 20 },
      { moveIn: 25, moveOut: null },
    ]);
    expect(unbilledStays({ moveIn: 10, moveOut: 30 }, [{ from: 5, to: 40 }])).toEqual([]);
    expect(unbilledStays({ moveIn: 10, moveOut: 30 }, [{ from: 30, to: 40 }])).toEqual([
      { moveIn: 10, moveOut: 30 },
    ]);
  });

  it('bills a unit that came after its month was invoiced on the next invoice, its fee too, once', () => {
    const october: Period = { start: dayOf('2026-10-01'), end: dayOf('2026-11-01') };
    const november: Period = { start: dayOf('2026-11-01'), end: dayOf('2026-12-01') };
    const first: BilledUnit = {
      id: 1,
      label: 'V-1',
      unitType: 'vault',
      warehouseId: null,
      moveIn: dayOf('2026-09-15'),
      moveOut: null,
    };
    const late: BilledUnit = { ...first, id: 2, label: 'V-2', moveIn: dayOf('2026-10-20') };
    const account = { id: 7, declaredValue: 0, agency: null, units: [first] };
    // October's invoice, issued on the 1st: V-2 was not there yet
    const issued = billAccount(account, october, terms);
    expect(issued.lines.map((l) => l.unitId)).toEqual([1]);

    const withV2 = { ...account, units: [first, late] };
    const before = billedBy([issued]);
    const novemberBill = withLateLines(
      billAccount(withV2, november, terms, before),
      billAccount(withV2, october, terms, before),
    );
    const lines = novemberBill.lines.map((l) => [l.kind, l.unitId, l.from, l.to]);
    expect(lines).toEqual([
      ['storage', 2, dayOf('2026-10-20'), october.end],
      ['handling-in', 2, dayOf('2026-10-20'), dayOf('2026-10-21')],
      ['storage', 1, november.start, november.end],
      ['storage', 2, november.start, november.end],
    ]);
    // 12 of October's 31 days at 31.00 a month, November whole twice, and the fee
    expect(novemberBill.total).toBe(1_200 + 500 + 3_100 + 3_100);
    expect(novemberBill.subtotal).toBe(novemberBill.lines.reduce((s, l) => s + l.amount, 0));
    // December's look back finds October and November billed: nothing late
    const again = billAccount(withV2, november, terms, billedBy([issued, novemberBill]));
    expect(again.lines).toEqual([]);
  });

  it("writes a line's days the company's way when told how", () => {
    const october: Period = { start: dayOf('2026-10-01'), end: dayOf('2026-11-01') };
    const unit: BilledUnit = {
      id: 1,
      label: 'V-1',
      unitType: 'vault',
      warehouseId: null,
      moveIn: dayOf('2026-10-20'),
      moveOut: null,
    };
    const account = { id: 7, declaredValue: 0, agency: null, units: [unit] };
    const described = (writeDay?: (day: number) => string) =>
      billAccount(account, october, { ...terms, writeDay }).lines.map((l) => l.description);
    expect(described()).toEqual([
      'Vault V-1: storage 2026-10-20 to 2026-10-31 (12 days)',
      'Vault V-1: handling in 2026-10-20',
    ]);
    expect(described(dayWriter('en-US'))).toEqual([
      'Vault V-1: storage Oct 20, 2026 to Oct 31, 2026 (12 days)',
      'Vault V-1: handling in Oct 20, 2026',
    ]);
    expect(described(dayWriter('de-DE'))[0]).toBe('Vault V-1: storage 20.10.2026 to 31.10.2026 (12 days)');
  });

  it('monthly runs on any day never miss nor repeat a stored day or a fee, whenever units come', () => {
    const start = dayOf('2026-01-01');
    const months: Period[] = [];
    for (
      let p = periodHolding('calendar', start, 0);
      months.length < 6;
      p = { start: p.end, end: nextMonthStart(p.end) }
    )
      months.push(p);
    const lastStart = months[months.length - 1]!.start;
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 27 }), { minLength: 6, maxLength: 6 }),
        fc.array(fc.integer({ min: 1, max: lastStart - start + 20 }), { maxLength: 6 }),
        fc.integer({ min: 0, max: 3_000_000 }),
        (runDays, arrivals, declaredValue) => {
          // one unit from the first day, so every month has an invoice; the others come on any day after
          const units: BilledUnit[] = [0, ...arrivals].map((offset, i) => ({
            id: i + 1,
            label: `V-${i + 1}`,
            unitType: 'vault',
            warehouseId: null,
            moveIn: start + offset,
            moveOut: null,
          }));
          const issued: AccountBill[] = [];
          months.forEach((month, i) => {
            const runDay = month.start + runDays[i]!;
            // the run knows the units that had come by its day
            const known = {
              id: 1,
              declaredValue,
              agency: null,
              units: units.filter((u) => u.moveIn <= runDay),
            };
            const before = billedBy(issued);
            let bill = billAccount(known, month, terms, before);
            if (i > 0) bill = withLateLines(bill, billAccount(known, months[i - 1]!, terms, before));
            issued.push(bill);
          });
          const billed = billedBy(issued);
          for (const unit of units) {
            const days = billed.units.get(unitKeyOf('vault', unit.id))?.days ?? [];
            const covered = days.flatMap((r) => Array.from({ length: r.to - r.from }, (_, k) => r.from + k));
            // no day twice; every day before the last month billed (a unit after the last run waits for the next)
            expect(new Set(covered).size).toBe(covered.length);
            for (let d = unit.moveIn; d < lastStart; d++) expect(covered).toContain(d);
            const fees = issued
              .flatMap((b) => b.lines)
              .filter((l) => l.kind === 'handling-in' && l.unitId === unit.id);
            // the fee once: by the last run when the unit came before it, never twice
            if (unit.moveIn < lastStart) expect(fees).toHaveLength(1);
            expect(fees.length).toBeLessThanOrEqual(1);
          }
          const valued = billed.valuation.flatMap((r) =>
            Array.from({ length: r.to - r.from }, (_, k) => r.from + k),
          );
          expect(new Set(valued).size).toBe(valued.length);
        },
      ),
      { numRuns: 100 },
    );
  });
});
