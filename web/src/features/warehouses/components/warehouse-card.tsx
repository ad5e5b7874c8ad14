import { Pencil, Trash2 } from 'lucide-react';
import { Link } from 'react-router';
import { occupancyColour, occupancyPercent, type OccupancyColour } from '@domain/rules/occupancy';
import type { WarehouseSummaryDto } from '@domain/schemas/warehouse.schema';
import { paths } from '@/config/paths';
import { useFormat } from '@/lib/format';

const textColour: Record<OccupancyColour, string> = {
  // the 700 shades keep 4.5:1 on white (the 500s of yellow and orange were 1.9:1 and 2.8:1)
  red: 'text-red-700',
  orange: 'text-orange-700',
  yellow: 'text-yellow-700',
  green: 'text-green-700',
};
const barColour: Record<OccupancyColour, string> = {
  red: 'bg-red-600',
  orange: 'bg-orange-500',
  yellow: 'bg-yellow-400',
  green: 'bg-green-600',
};

export function WarehouseCard({
  warehouse,
  onDelete,
  canManage = true,
}: {
  warehouse: WarehouseSummaryDto;
  onDelete: () => void;
  /** editing and deleting a warehouse are a Manager's */
  canManage?: boolean;
}) {
  const format = useFormat();
  const percent = occupancyPercent(warehouse.stats.realVaultCount, warehouse.warehouseCapacity);
  const colour = occupancyColour(percent);
  return (
    <article
      aria-label={warehouse.name}
      className="group relative flex flex-col rounded-xl border border-slate-200 bg-white p-5 shadow-sm transition hover:border-accent/50 hover:shadow-md has-[a:focus-visible]:ring-4 has-[a:focus-visible]:ring-accent has-[a:focus-visible]:ring-offset-2"
    >
      <div className="flex items-start justify-between gap-4">
        <h2 className="min-w-0 text-lg font-semibold text-primary">
          {/* the whole card is the link's hit area; the action buttons sit above it */}
          <Link
            to={paths.warehouse(warehouse.name)}
            className="inline-flex min-h-11 items-center break-words after:absolute after:inset-0 focus:outline-none"
          >
            {warehouse.name}
          </Link>
        </h2>
        <p
          className={`shrink-0 text-2xl font-bold tabular-nums ${textColour[colour]}`}
          data-testid="occupancy"
          data-colour={colour}
        >
          {format.percent(percent)}
        </p>
      </div>
      <div className="mt-3 h-2 overflow-hidden rounded-full bg-slate-100" aria-hidden>
        <div
          className={`h-full rounded-full ${barColour[colour]}`}
          style={{ width: `${Math.min(percent, 100)}%` }}
        />
      </div>
      <dl className="mt-3 grid grid-cols-2 gap-x-4 gap-y-1 text-sm text-slate-500">
        <dt>Vaults</dt>
        <dd className="text-right text-slate-700 tabular-nums">
          {format.number(warehouse.stats.realVaultCount)} / {format.number(warehouse.warehouseCapacity)}
        </dd>
        <dt>Field grid</dt>
        <dd className="text-right text-slate-700 tabular-nums">
          {format.number(warehouse.cols)} x {format.number(warehouse.rows)}
        </dd>
        <dt>Floor</dt>
        <dd className="text-right text-slate-700 tabular-nums">
          {format.number(warehouse.width)} x {format.number(warehouse.length)} ft
        </dd>
      </dl>
      {canManage && (
        <div className="relative z-10 mt-4 flex justify-end gap-2 border-t border-slate-100 pt-3">
          <Link
            to={paths.editWarehouse(warehouse.name)}
            aria-label={`Edit ${warehouse.name}`}
            className="inline-flex min-h-10 pointer-coarse:min-h-11 items-center gap-1.5 rounded-lg px-3 text-sm font-medium text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-accent"
          >
            <Pencil className="h-4 w-4" aria-hidden /> Edit
          </Link>
          <button
            type="button"
            onClick={onDelete}
            aria-label={`Delete ${warehouse.name}`}
            className="inline-flex min-h-10 pointer-coarse:min-h-11 items-center gap-1.5 rounded-lg px-3 text-sm font-medium text-danger hover:bg-red-50 focus-visible:outline-2 focus-visible:outline-danger"
          >
            <Trash2 className="h-4 w-4" aria-hidden /> Delete
          </button>
        </div>
      )}
    </article>
  );
}
