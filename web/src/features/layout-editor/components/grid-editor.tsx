import { Minus, Plus } from 'lucide-react';
import { useState } from 'react';
import { fieldSlotCount } from '../../../../../domain/rules/capacity';
import { compareFieldNames } from '../../../../../domain/rules/field-names';
import { fieldFillLevel } from '../../../../../domain/rules/occupancy';
import type { WarehouseDto } from '../../../../../domain/schemas/warehouse.schema';
import type { GridChangeInput } from '../../../api/layout';
import { GridChangeDialog } from './grid-change-dialog';

const FILL = {
  empty: 'bg-field-empty text-slate-600',
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
    'flex h-10 w-10 items-center justify-center rounded-lg border border-slate-300 bg-white text-slate-700 shadow-sm hover:border-accent hover:text-accent focus-visible:outline-2 focus-visible:outline-accent';
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

/** The field grid with add (+) and subtract (-) buttons on its left, right and bottom sides. */
export function GridEditor({ warehouse }: { warehouse: WarehouseDto }) {
  const [change, setChange] = useState<Omit<GridChangeInput, 'count'> | null>(null);
  const fields = Object.values(warehouse.fields).sort((a, b) => compareFieldNames(a.name, b.name));

  return (
    <div className="space-y-3">
      <div className="overflow-x-auto">
        <div className="mx-auto grid w-max grid-cols-[auto_auto_auto] items-center gap-3">
          <SideButtons side="left" onPick={setChange} vertical />
          <div>
            {fields.length === 0 ? (
              <p className="p-6 text-center text-slate-500">This warehouse does not have any fields</p>
            ) : (
              <div
                role="grid"
                aria-label="Field grid"
                aria-rowcount={warehouse.rows}
                aria-colcount={warehouse.cols}
                className="mx-auto grid w-max gap-1"
                style={{
                  gridTemplateRows: `repeat(${warehouse.rows}, 1.75rem)`,
                  gridTemplateColumns: `repeat(${warehouse.cols}, minmax(2.5rem, 3.5rem))`,
                  gridAutoFlow: 'column',
                }}
              >
                {fields.map((field) => {
                  if (field.type === 'couchbox-B') return null;
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
                      title={`${field.name}: ${count} ${count === 1 ? 'vault' : 'vaults'}`}
                      className={`flex items-center justify-center rounded text-[11px] font-semibold ${FILL[level]}`}
                      style={field.type === 'couchbox-T' ? { gridRow: 'span 2' } : undefined}
                    >
                      {field.name}
                    </div>
                  );
                })}
              </div>
            )}
          </div>
          <SideButtons side="right" onPick={setChange} vertical />
          <div />
          <SideButtons side="bottom" onPick={setChange} vertical={false} />
          <div />
        </div>
      </div>
      <p className="text-center text-xs text-slate-500">
        {warehouse.cols} columns x {warehouse.rows} rows. Columns are added or removed on the left or right,
        rows at the bottom.
      </p>
      {change && <GridChangeDialog warehouse={warehouse} change={change} onClose={() => setChange(null)} />}
    </div>
  );
}
