import { useFormat } from '@/lib/format';
import type { ReactNode } from 'react';

/** A scrollable table with a caption for screen readers; its rows stay readable on a phone by scrolling sideways. */
export function BillingTable({
  caption,
  head,
  children,
}: {
  caption: string;
  head: string[];
  children: ReactNode;
}) {
  return (
    <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm">
      <table className="w-full min-w-[40rem] text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-slate-50 text-xs tracking-wide text-slate-600 uppercase">
          <tr>
            {head.map((h) => (
              <th key={h} scope="col" className="px-3 py-2 font-semibold">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">{children}</tbody>
      </table>
    </div>
  );
}

export const cell = 'px-3 py-2 align-top';
/** a cell of a day or a number that must not break over two lines */
export const dayCell = 'px-3 py-2 align-top whitespace-nowrap';

/** A calendar day ('2026-11-29') written the company's way ('Nov 29, 2026'), '-' for none (issue 28: dates in its locale). */
export function useCalendarDay(): (day: string | null | undefined) => string {
  const format = useFormat();
  return (day) => (day ? format.date(day) : '-');
}
export const amountCell = 'px-3 py-2 align-top text-right tabular-nums whitespace-nowrap';
