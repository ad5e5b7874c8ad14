import { useRef } from 'react';
import type { PrintVaultDto } from '@domain/rules/print-order';
import { useWindowRows } from './use-window-rows';

const ROW_HEIGHT = 40;

const columns: {
  label: string;
  width: string;
  cell: (v: PrintVaultDto) => string | number | null;
  numeric?: boolean;
}[] = [
  { label: 'Vault #', width: 'w-[12%]', cell: (v) => v.name },
  { label: 'Customer', width: 'w-[20%]', cell: (v) => v.customer_name },
  { label: 'Type', width: 'w-[11%]', cell: (v) => v.type },
  { label: 'Pos', width: 'w-[6%]', cell: (v) => v.position, numeric: true },
  { label: 'Field', width: 'w-[10%]', cell: (v) => v.field_name },
  { label: 'Warehouse', width: 'w-[18%]', cell: (v) => v.warehouse_name },
  { label: 'Notes', width: 'w-[23%]', cell: (v) => v.note },
];

const cellClass =
  'overflow-hidden px-2 text-ellipsis lg:px-3 whitespace-nowrap shadow-[inset_0_-1px_0_var(--color-slate-100)] print:overflow-visible print:py-1 print:whitespace-normal print:shadow-[inset_0_-1px_0_#cbd5e1]';

function VaultRow({
  vault,
  onShowNote,
}: {
  vault: PrintVaultDto;
  onShowNote: (vault: PrintVaultDto) => void;
}) {
  return (
    <tr style={{ height: ROW_HEIGHT }} className="hover:bg-slate-50 print:h-auto! print:break-inside-avoid">
      {columns.map((column) => {
        const value = column.cell(vault);
        const text = value === null || value === '' ? '' : String(value);
        const isNote = column.label === 'Notes' && text !== '';
        return (
          <td
            key={column.label}
            title={text || undefined}
            className={`${cellClass} ${column.numeric ? 'text-right tabular-nums' : ''}`}
          >
            {isNote ? (
              // a row has one height on screen, so a long note opens whole in a dialog; paper wraps it
              <button
                type="button"
                onClick={() => onShowNote(vault)}
                aria-haspopup="dialog"
                className="block w-full cursor-pointer truncate rounded text-left decoration-slate-400 decoration-dotted underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-accent print:whitespace-pre-wrap print:no-underline"
              >
                {text}
              </button>
            ) : (
              text
            )}
          </td>
        );
      })}
    </tr>
  );
}

/**
 * The vault list: on screen only the rows near the window are in the document (20,000 rows stay smooth);
 * `printAll` renders every row, for the paper copy.
 */
export function VaultPrintTable({
  vaults,
  printAll,
  onShowNote,
  className = '',
  label,
}: {
  vaults: readonly PrintVaultDto[];
  printAll: boolean;
  onShowNote: (vault: PrintVaultDto) => void;
  className?: string;
  label?: string;
}) {
  const bodyRef = useRef<HTMLTableSectionElement>(null);
  const range = useWindowRows(bodyRef, vaults.length, ROW_HEIGHT);
  const { start, end } = printAll ? { start: 0, end: vaults.length } : range;
  const topSpace = start * ROW_HEIGHT;
  const bottomSpace = (vaults.length - end) * ROW_HEIGHT;

  return (
    <table
      className={`w-full table-fixed border-separate border-spacing-0 text-sm print:text-[10pt] ${className}`}
      aria-rowcount={vaults.length + 1}
      aria-label={label}
    >
      <thead className="sticky top-14 z-10 bg-slate-100 text-left text-xs tracking-wide text-slate-600 uppercase print:static print:bg-white">
        <tr>
          {columns.map((column) => (
            <th
              key={column.label}
              scope="col"
              className={`${column.width} border-b border-slate-300 px-2 py-2.5 lg:px-3 font-semibold ${column.numeric ? 'text-right' : ''}`}
            >
              {column.label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody ref={bodyRef} className="bg-white text-slate-800">
        {topSpace > 0 && (
          <tr aria-hidden style={{ height: topSpace }}>
            <td colSpan={columns.length} />
          </tr>
        )}
        {vaults.slice(start, end).map((vault) => (
          <VaultRow key={vault.id} vault={vault} onShowNote={onShowNote} />
        ))}
        {bottomSpace > 0 && (
          <tr aria-hidden style={{ height: bottomSpace }}>
            <td colSpan={columns.length} />
          </tr>
        )}
      </tbody>
    </table>
  );
}
