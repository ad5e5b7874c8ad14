import { type ReactNode, type RefObject, useLayoutEffect, useRef } from 'react';

/** The first column stays in place while the others scroll under it (a short name: whose row it is). */
const stickyFirstColumn =
  '[&_td:first-child]:bg-white [&_th:first-child]:bg-slate-50 [&_tr>:first-child]:sticky [&_tr>:first-child]:left-0 [&_tr>:first-child]:z-[1] [&_tr>:first-child]:shadow-[1px_0_0_#e2e8f0]';

/** Names each body cell after its column, a cell spanning columns after the first it spans. */
function labelCells(body: HTMLTableSectionElement, head: string[]) {
  for (const row of body.rows) {
    let column = 0;
    for (const cell of row.cells) {
      const name = head[column];
      if (name !== undefined && cell.dataset.label !== name) cell.dataset.label = name;
      column += cell.colSpan;
    }
  }
}

/**
 * Each body cell carries its column's name (`data-label`), which a wide table shows above the value where it draws
 * its rows as cards (a phone, index.css). The rows may change on their own (a hold taken), so new rows are labelled
 * as they come.
 */
function useCellLabels(table: RefObject<HTMLTableElement | null>, head: string[]) {
  useLayoutEffect(() => {
    const body = table.current?.tBodies[0];
    if (!body) return;
    labelCells(body, head);
    const observer = new MutationObserver(() => labelCells(body, head));
    observer.observe(body, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, [table, head]);
}

/**
 * A table with a caption for screen readers. On a phone a wide one draws each row as a card, every value under its
 * column's name, so nothing sits off the screen; a `narrow` one (a few columns) stays a table. From a tablet up,
 * `stickyFirst` keeps the first column (the customer, the account) in view while a wide table scrolls sideways.
 */
export function DataTable({
  caption,
  head,
  children,
  stickyFirst = false,
  narrow = false,
}: {
  caption: string;
  head: string[];
  children: ReactNode;
  stickyFirst?: boolean;
  narrow?: boolean;
}) {
  const table = useRef<HTMLTableElement>(null);
  useCellLabels(table, head);
  return (
    // a table wider than the screen scrolls in its own box, which a keyboard reaches too (it is a named region)
    <div
      className="overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm focus-visible:outline-2 focus-visible:outline-accent"
      role="region"
      aria-label={caption}
      tabIndex={0}
    >
      <table
        ref={table}
        className={`w-full text-left text-sm ${narrow ? '' : 'row-cards min-w-[40rem]'} ${stickyFirst ? stickyFirstColumn : ''}`}
      >
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
export const amountCell = 'px-3 py-2 align-top text-right tabular-nums whitespace-nowrap';
