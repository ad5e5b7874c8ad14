import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { billAccount } from './account-bill';
import {
  type AgencyCover,
  billedRange,
  conversionDay,
  MissingRateError,
  type Period,
  periodHolding,
  periodLines,
  rangeCharge,
  valuationAmount,
} from './charges';
import { dayOf, isoOf, nextMonthStart } from './days';
import { resolvePlan } from './rates';

const firstDay = dayOf('2024-01-01');
const lastDay = dayOf('2027-12-31');
const dayArb = fc.integer({ min: firstDay, max: lastDay });
const rateArb = fc.integer({ min: 0, max: 5_000_000 });

/** the calendar months from the one holding `from` until the one holding `to` */
function monthsCovering(from: number, to: number): Period[] {
  const periods: Period[] = [];
  let p = periodHolding('calendar', from, 0);
  while (p.start < to) {
    periods.push(p);
    p = { start: p.end, end: nextMonthStart(p.end) };
  }
  return periods;
}

describe('pro-rating by the day', () => {
  it('the pro-rated parts of a period add up to exactly its charge, however it is cut', () => {
    fc.assert(
      fc.property(dayArb, rateArb, fc.array(fc.integer({ min: 1, max: 30 })), (day, rate, cuts) => {
        const period = periodHolding('calendar', day, 0);
        const length = period.end - period.start;
        const points = [...new Set([0, length, ...cuts.filter((c) => c < length)])].sort((a, b) => a - b);
        let sum = 0;
        for (let i = 0; i + 1 < points.length; i++)
          sum += rangeCharge(rate, period, period.start + points[i]!, period.start + points[i + 1]!);
        expect(sum).toBe(rate);
      }),
    );
  });

  it("a unit's lines of a month add up to the month's charge across move-ins, rate changes and agency days", () => {
    fc.assert(
      fc.property(
        dayArb,
        rateArb,
        fc.integer({ min: 0, max: 40 }),
        fc.integer({ min: 0, max: 40 }),
        (day, rate, agencyStart, agencyDays) => {
          const period = periodHolding('calendar', day, 0);
          // the same rate entered twice (a change to the same amount) must not change the sum
          const plan = [
            { from: period.start - 10, amount: rate },
            { from: period.start + 9, amount: rate },
          ];
          const agency = {
            from: period.start + agencyStart - 5,
            to: period.start + agencyStart - 5 + agencyDays,
          };
          const lines = periodLines(period, { moveIn: period.start - 3, moveOut: null }, plan, agency);
          expect(lines.reduce((s, l) => s + l.amount, 0)).toBe(rate);
        },
      ),
    );
  });

  it('a line is rounded once, half away from zero: 100.00 over 3 days of a 30-day month is 10.00', () => {
    const period = { start: dayOf('2026-04-01'), end: dayOf('2026-05-01') };
    expect(rangeCharge(10_000, period, period.start, period.start + 3)).toBe(1_000);
    // 1 cent a month for 15 of 30 days is half a cent: away from zero, 1 cent; the other 15 days then cost 0
    expect(rangeCharge(1, period, period.start, period.start + 15)).toBe(1);
    expect(rangeCharge(1, period, period.start + 15, period.end)).toBe(0);
  });
});

describe('no day billed twice or missed', () => {
  it('across consecutive periods, rate changes and a SIT conversion, every stored day is billed exactly once', () => {
    fc.assert(
      fc.property(
        dayArb,
        fc.option(fc.integer({ min: 0, max: 400 }), { nil: null }),
        fc.array(fc.tuple(fc.integer({ min: -60, max: 400 }), rateArb), { minLength: 1, maxLength: 5 }),
        fc.integer({ min: -30, max: 100 }),
        fc.integer({ min: 0, max: 180 }),
        (moveIn, length, changes, sitOffset, daysAllowed) => {
          const moveOut = length === null ? null : moveIn + length;
          const plan = resolvePlan(
            [
              {
                kind: 'storage',
                unitType: 'vault',
                warehouseId: null,
                accountId: null,
                from: moveIn - 100,
                amount: 1,
              },
              ...changes.map(([offset, amount]) => ({
                kind: 'storage' as const,
                unitType: 'vault' as const,
                warehouseId: null,
                accountId: null,
                from: moveIn + offset,
                amount,
              })),
            ],
            { kind: 'storage', unitType: 'vault', warehouseId: null, accountId: 1 },
          );
          const sitStart = moveIn + sitOffset;
          const agency: AgencyCover = { from: sitStart, to: conversionDay(sitStart, daysAllowed) };
          const until = moveOut ?? moveIn + 400;
          const billed: number[] = [];
          for (const period of monthsCovering(moveIn, until)) {
            const stay = { moveIn, moveOut: moveOut ?? until };
            for (const line of periodLines(period, stay, plan, agency)) {
              for (let d = line.from; d < line.to; d++) {
                billed.push(d);
                expect(line.payer).toBe(d >= agency.from && d < agency.to ? 'agency' : 'customer');
              }
            }
          }
          const expected = Array.from({ length: until - moveIn }, (_, i) => moveIn + i);
          expect(billed).toEqual(expected);
        },
      ),
    );
  });

  it('the 30-day cycle tiles the days from move-in without a gap', () => {
    fc.assert(
      fc.property(dayArb, fc.integer({ min: 0, max: 200 }), (anchor, offset) => {
        const p = periodHolding('thirty-days', anchor + offset, anchor);
        expect(p.end - p.start).toBe(30);
        expect(p.start <= anchor + offset && anchor + offset < p.end).toBe(true);
        expect(periodHolding('thirty-days', p.end, anchor).start).toBe(p.end);
      }),
    );
  });

  it('the month of a move-out bills up to the day before the release', () => {
    const period = { start: dayOf('2026-03-01'), end: dayOf('2026-04-01') };
    expect(billedRange(period, { moveIn: dayOf('2026-02-10'), moveOut: dayOf('2026-03-11') })).toEqual({
      from: dayOf('2026-03-01'),
      to: dayOf('2026-03-11'),
    });
    expect(billedRange(period, { moveIn: dayOf('2026-04-01'), moveOut: null })).toBeNull();
  });

  it('a billed day without a rate is refused, never charged at zero', () => {
    const period = { start: dayOf('2026-03-01'), end: dayOf('2026-04-01') };
    expect(() =>
      periodLines(period, { moveIn: period.start, moveOut: null }, [
        { from: dayOf('2026-03-10'), amount: 100 },
      ]),
    ).toThrow(MissingRateError);
  });
});

describe('rates', () => {
  const base = { unitType: 'vault' as const, warehouseId: null, accountId: null };
  it('an account rate wins over a warehouse rate, which wins over the company rate, each from its day', () => {
    const plan = resolvePlan(
      [
        { ...base, kind: 'storage', from: 100, amount: 5000 },
        { ...base, kind: 'storage', warehouseId: 7, from: 120, amount: 6000 },
        { ...base, kind: 'storage', accountId: 3, from: 150, amount: 4500 },
        { ...base, kind: 'storage', accountId: 4, from: 110, amount: 1 },
        { ...base, kind: 'storage', from: 130, amount: 5500 },
      ],
      { kind: 'storage', unitType: 'vault', warehouseId: 7, accountId: 3 },
    );
    expect(plan).toEqual([
      { from: 100, amount: 5000 },
      { from: 120, amount: 6000 },
      { from: 150, amount: 4500 },
    ]);
  });
});

describe('an account for a month', () => {
  it('bills storage, handling, valuation and tax, and puts agency-paid SIT days on the agency statement', () => {
    const march = { start: dayOf('2026-03-01'), end: dayOf('2026-04-01') };
    const rates = [
      {
        kind: 'storage' as const,
        unitType: 'vault' as const,
        warehouseId: null,
        accountId: null,
        from: 0,
        amount: 6200,
      },
      {
        kind: 'handling-in' as const,
        unitType: 'vault' as const,
        warehouseId: null,
        accountId: null,
        from: 0,
        amount: 2500,
      },
      { kind: 'valuation' as const, unitType: null, warehouseId: null, accountId: null, from: 0, amount: 75 },
    ];
    const bill = billAccount(
      {
        id: 1,
        declaredValue: 2_000_000, // 20,000.00
        agency: { from: dayOf('2026-02-01'), to: dayOf('2026-03-11') },
        units: [
          {
            id: 10,
            label: 'V-1',
            unitType: 'vault',
            warehouseId: 1,
            moveIn: dayOf('2026-02-01'),
            moveOut: null,
          },
          {
            id: 11,
            label: 'V-2',
            unitType: 'vault',
            warehouseId: 1,
            moveIn: dayOf('2026-03-21'),
            moveOut: null,
          },
        ],
      },
      march,
      { rates, taxBasisPoints: 800, minorDigits: 2 },
    );
    expect(bill.problems).toEqual([]);
    // V-1: 10 agency days (Mar 1-10) and 21 customer days; V-2: 11 days and its handling-in
    const agencyDays = rangeCharge(6200, march, march.start, dayOf('2026-03-11'));
    expect(bill.agencyLines.map((l) => l.amount)).toEqual([
      agencyDays,
      rangeCharge(1500, march, march.start, dayOf('2026-03-11')),
    ]);
    expect(valuationAmount(2_000_000, 75, 2)).toBe(1500);
    const customerAmounts = bill.lines.map((l) => [l.kind, l.amount]);
    expect(customerAmounts).toEqual([
      ['storage', 6200 - agencyDays],
      ['storage', rangeCharge(6200, march, dayOf('2026-03-21'), march.end)],
      ['handling-in', 2500],
      ['valuation', 1500 - rangeCharge(1500, march, march.start, dayOf('2026-03-11'))],
    ]);
    expect(bill.subtotal).toBe(bill.lines.reduce((s, l) => s + l.amount, 0));
    expect(bill.tax).toBe(bill.lines.reduce((s, l) => s + Math.round(l.amount * 0.08), 0));
    expect(bill.total).toBe(bill.subtotal + bill.tax);
    expect(bill.lines[0]!.description).toBe(
      `Vault V-1: storage ${isoOf(dayOf('2026-03-11'))} to 2026-03-31 (21 days)`,
    );
  });

  it('names the unit that has no rate instead of billing it for nothing', () => {
    const bill = billAccount(
      {
        id: 1,
        declaredValue: 0,
        agency: null,
        units: [
          {
            id: 1,
            label: 'L-9',
            unitType: 'liftvan',
            warehouseId: null,
            moveIn: dayOf('2026-03-01'),
            moveOut: null,
          },
        ],
      },
      { start: dayOf('2026-03-01'), end: dayOf('2026-04-01') },
      { rates: [], taxBasisPoints: 0, minorDigits: 2 },
    );
    expect(bill.problems).toEqual(['Liftvan L-9 has no storage rate on 2026-03-01.']);
  });
});
