import { Minus, Plus } from 'lucide-react';
import { useRef, useState } from 'react';
import { fieldSlotCount } from '@domain/rules/capacity';
import { compareFieldNames, parseFieldName } from '@domain/rules/field-names';
import { fieldFillLevel } from '@domain/rules/occupancy';
import type { FieldDto, WarehouseDto } from '@domain/schemas/warehouse.schema';
import type { GridChangeInput } from '@/api/layout';
import { useAlertMessage } from '@/components/ui/alert-message';
import { GridChangeDialog } from './grid-change-dialog';

const FILL = {
  empty: 'bg-field-empty text-slate-700',
  success: 'bg-success text-white',
  warning: 'bg-warning text-slate-900',
  full: 'bg-full text-white',
} as const;

function SideButtons({
  side,
  onPick,
  vertical,
}: {
  side: GridChangeInput['direction'];
  onPick: (change: Omit<GridChangeInput, 'count'>) => void;
  vertical: boolean;
}) {
  const noun = side === 'bottom' ? 'rows' : 'columns';
  const where = side === 'bottom' ? 'at the bottom' : `on the ${side}`;
  const button =
    'flex h-10 w-10 pointer-coarse:h-11 pointer-coarse:w-11 items-center justify-center rounded-lg border border-slate-300 bg-white text-slate-700 shadow-sm hover:border-accent hover:text-accent focus-visible:outline-2 focus-visible:outline-accent';
  return (
    <div className={`flex items-center justify-center gap-2 ${vertical ? 'flex-col' : 'flex-row'}`}>
      <button
        type="button"
        className={button}
        aria-label={`Add ${noun} ${where}`}
        title={`Add ${noun} ${where}`}
        onClick={() => onPick({ direction: side, operation: 'plus' })}
      >
        <Plus className="h-5 w-5" aria-hidden />
      </button>
      <button
        type="button"
        className={button}
        aria-label={`Subtract ${noun} ${where}`}
        title={`Subtract ${noun} ${where}`}
        onClick={() => onPick({ direction: side, operation: 'minus' })}
      >
        <Minus className="h-5 w-5" aria-hidden />
      </button>
    </div>
  );
}

/** The tiles row by row (numbers), each placed in its column (letter); a couchbox top covers two rows. */
function gridRows(warehouse: WarehouseDto) {
  const rows: { field: FieldDto; col: number; row: number; span: number }[][] = Array.from(
    { length: warehouse.rows },
    () => [],
  );
  const fields = Object.values(warehouse.fields).sort((a, b) => compareFieldNames(a.name, b.name));
  for (const field of fields) {
    if (field.type === 'couchbox-B') continue;
    const place = parseFieldName(field.name);
    if (!place || place.row > warehouse.rows) continue;
    const span = field.type === 'couchbox-T' && place.row < warehouse.rows ? 2 : 1;
    rows[place.row - 1]!.push({ field, col: place.col, row: place.row, span });
  }
  return rows;
}

/**
 * The field grid with add (+) and subtract (-) buttons on its left, right and bottom sides. Only the grid
 * scrolls sideways, so the buttons stay on the screen however many columns the warehouse has.
 */
export function GridEditor({ warehouse }: { warehouse: WarehouseDto }) {
  const [change, setChange] = useState<Omit<GridChangeInput, 'count'> | null>(null);
  // a refused removal's alert waits until the dialog that asked has closed and given focus back to its button
  const refusal = useRef<{ title: string; message: string } | null>(null);
  const alert = useAlertMessage();
  const rows = gridRows(warehouse);
  const empty = rows.every((row) => row.length === 0);

  return (
    <div className="space-y-3">
      <div className="flex items-center gap-2 sm:gap-3">
        <div className="shrink-0">
          <SideButtons side="left" onPick={setChange} vertical />
        </div>
        <div className="min-w-0 flex-1 overflow-x-auto p-1">
          {empty ? (
            <p className="p-6 text-center text-slate-600">This warehouse does not have any fields</p>
          ) : (
            <div
              role="grid"
              aria-label="Field grid"
              aria-rowcount={warehouse.rows}
              aria-colcount={warehouse.cols}
              className="grid w-full gap-0.5 sm:gap-1"
              style={{
                gridTemplateRows: `repeat(${warehouse.rows}, 1.75rem)`,
                // the tiles are not buttons, so they may shrink until their names just fit ('A12'): a 9-column
                // warehouse fits a phone beside the buttons; a wider one scrolls, from column A ('safe' keeps the
                // left edge reachable)
                gridTemplateColumns: `repeat(${warehouse.cols}, minmax(1.375rem, 3.5rem))`,
                justifyContent: 'safe center',
              }}
            >
              {rows.map((row, r) => (
                <div key={r} role="row" aria-rowindex={r + 1} className="contents">
                  {row.map(({ field, col, span }) => {
                    const count = Object.keys(field.vaults).length;
                    const level = fieldFillLevel(
                      count,
                      fieldSlotCount(field.type, warehouse.fieldCapacity),
                      field.full,
                    );
                    return (
                      <div
                        key={field.id}
                        role="gridcell"
                        aria-colindex={col}
                        aria-rowspan={span > 1 ? span : undefined}
                        title={`${field.name}: ${count} ${count === 1 ? 'vault' : 'vaults'}`}
                        className={`flex min-w-0 items-center justify-center overflow-hidden rounded text-[10px] font-semibold sm:text-[11px] ${FILL[level]}`}
                        style={{ gridColumn: col, gridRow: `${r + 1} / span ${span}` }}
                      >
                        {field.name}
                      </div>
                    );
                  })}
                </div>
              ))}
            </div>
          )}
        </div>
        <div className="shrink-0">
          <SideButtons side="right" onPick={setChange} vertical />
        </div>
      </div>
      <SideButtons side="bottom" onPick={setChange} vertical={false} />
      <p className="text-center text-xs text-slate-600">
        {warehouse.cols} columns x {warehouse.rows} rows. Columns are added or removed on the left or right,
        rows at the bottom.
      </p>
      {change && (
        <GridChangeDialog
          warehouse={warehouse}
          change={change}
          onClose={() => setChange(null)}
          onRefused={(title, message) => {
            refusal.current = { title, message };
            setChange(null);
          }}
          onClosed={() => {
            const refused = refusal.current;
            refusal.current = null;
            if (refused) alert.show(refused.title, refused.message);
          }}
        />
      )}
      {alert.element}
    </div>
  );
}
