import { Minus, Plus } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { toast } from 'sonner';
import { fieldGridRoom } from '@domain/rules/field-grid-floor';
import { removeVaultsFirst } from '@domain/schemas/layout.schema';
import { MAX_GRID_COLS, MAX_GRID_ROWS } from '@domain/schemas/warehouse.schema';
import { type GridChangeInput, useChangeGrid } from '@/api/layout';
import { Button } from '@/components/ui/button';
import { FormButtons } from '@/components/ui/form-buttons';
import { Dialog } from '@/components/ui/dialog';
import { ErrorList } from '@/components/ui/error-list';
import { ApiError, errorMessages } from '@/lib/api-client';

const SIDE = { left: 'on the left', right: 'on the right', bottom: 'at the bottom' } as const;

/**
 * 'Add Rows' / 'Subtract Rows' (and 'Columns' for the sides) with a count stepper that stops at 1. Removing fields
 * that hold vaults is refused with the spec's alert: the dialog hands it to `onRefused` and closes, and `onClosed`
 * says when it has, so the alert opens after it rather than on top of it.
 */
export function GridChangeDialog({
  warehouse,
  change,
  onClose,
  onRefused,
  onClosed,
}: {
  warehouse: { id: number; rows: number; cols: number; width: number; length: number };
  change: Omit<GridChangeInput, 'count'>;
  onClose: () => void;
  onRefused: (title: string, message: string) => void;
  onClosed?: () => void;
}) {
  const [count, setCount] = useState(1);
  const [errors, setErrors] = useState<string[]>([]);
  const mutation = useChangeGrid(warehouse);
  const rowsSide = change.direction === 'bottom';
  const noun = rowsSide ? 'Rows' : 'Columns';
  const adding = change.operation === 'plus';
  const title = `${adding ? 'Add' : 'Subtract'} ${noun}`;
  const current = rowsSide ? warehouse.rows : warehouse.cols;
  // a measured floor holds only so many 5 ft fields; the server refuses more, so the stepper stops there
  const room = fieldGridRoom(warehouse);
  const limit = rowsSide ? MAX_GRID_ROWS : MAX_GRID_COLS;
  const floorLimit = room ? (rowsSide ? room.rows : room.cols) : limit;
  const max = adding ? Math.min(limit, floorLimit) - current : current - 1;

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    mutation.mutate(
      { ...change, count },
      {
        onSuccess: (answer) => {
          const now = rowsSide ? answer.newWarehouseRowsCount : answer.newWarehouseColsCount;
          toast.success(
            `${noun} ${adding ? 'added' : 'removed'}: the grid now has ${now} ${noun.toLowerCase()}.`,
            { duration: 2500 },
          );
          onClose();
        },
        onError: (error) => {
          const messages = errorMessages(error);
          const refusal = removeVaultsFirst(change.direction);
          if (error instanceof ApiError && messages.includes(refusal)) {
            // nothing was changed and there is nothing to try here: the alert says why, in place of this dialog
            onRefused(`${noun} Not Removed`, refusal);
            return;
          }
          setErrors(messages);
        },
      },
    );
  }

  const clamp = (n: number) =>
    Math.max(1, Math.min(Math.max(1, max), Number.isFinite(n) ? Math.round(n) : 1));

  return (
    <Dialog
      open
      onOpenChange={(open) => !open && !mutation.isPending && onClose()}
      onClosed={onClosed}
      title={title}
    >
      <form onSubmit={onSubmit} className="space-y-4" aria-label={title}>
        <p className="text-sm text-slate-600">
          {adding ? 'Add' : 'Remove'} {noun.toLowerCase()} {SIDE[change.direction]} of the field grid. It has{' '}
          {current} {noun.toLowerCase()} now.
          {adding && floorLimit < limit && ` The floor has room for ${floorLimit} in all.`}
          {!adding && ' Only empty fields can be removed.'}
        </p>
        {max < 1 ? (
          <p className="rounded-lg bg-amber-50 p-3 text-sm text-amber-800">
            {!adding
              ? `At least one ${rowsSide ? 'row' : 'column'} must remain.`
              : floorLimit < limit
                ? `The floor is ${rowsSide ? `${warehouse.length} ft long` : `${warehouse.width} ft wide`}: it has no room for another ${rowsSide ? 'row' : 'column'} of 5 ft fields. Make it ${rowsSide ? 'longer' : 'wider'} under Edit Warehouse Fields first.`
                : `The grid already has the most ${noun.toLowerCase()} allowed.`}
          </p>
        ) : (
          <div className="flex items-center justify-center gap-3">
            <Button
              variant="secondary"
              aria-label="Fewer"
              onClick={() => setCount((n) => clamp(n - 1))}
              disabled={count <= 1}
            >
              <Minus className="h-4 w-4" aria-hidden />
            </Button>
            <input
              aria-label={`Number of ${noun.toLowerCase()}`}
              type="number"
              min={1}
              max={max}
              value={count}
              onChange={(e) => setCount(clamp(Number(e.target.value)))}
              className="w-20 rounded-lg border border-slate-300 px-3 py-2 text-center text-lg font-semibold focus:border-accent focus:ring-2 focus:ring-accent/30 focus:outline-none"
            />
            <Button
              variant="secondary"
              aria-label="More"
              onClick={() => setCount((n) => clamp(n + 1))}
              disabled={count >= max}
            >
              <Plus className="h-4 w-4" aria-hidden />
            </Button>
          </div>
        )}
        <ErrorList messages={errors} />
        <FormButtons
          submit={title}
          danger={!adding}
          pending={mutation.isPending}
          disabled={max < 1}
          onCancel={onClose}
        />
      </form>
    </Dialog>
  );
}
