import { rackTitle } from '@domain/rules/rack-placement';
import { rackFillLevel } from '@domain/rules/occupancy';
import { VaultsBlock } from '@/components/ui/vaults-block';
import type { RackDto } from '@domain/schemas/rack.schema';
import type { WarehouseDto } from '@domain/schemas/warehouse.schema';
import { PlanItemList } from '@/components/ui/plan-item-list';
import { floorPlanStyle, usePlanScale } from '@/lib/use-plan-scale';
import { useCoarsePointer } from '@/lib/use-media';
import { useSidewaysOverflow } from '@/lib/use-overflow';

/** The smallest a rack is drawn on a touch screen, in CSS pixels: a finger's target. */
const TAP = 44;
/** The plan's height on a laptop; a touch plan may grow to 840 px or 70 % of the screen's height for its racks. */
const PLAN_HEIGHT = 560;
const touchHeight = () => Math.min(840, 0.7 * window.innerHeight);

const FILL_CLASSES = {
  success: 'bg-success border-emerald-900 text-white',
  warning: 'bg-warning border-amber-700 text-slate-900',
  full: 'bg-full border-red-900 text-white',
} as const;

const SWATCH = { success: 'bg-success', warning: 'bg-warning', full: 'bg-full' } as const;

export function rackFill(rack: RackDto) {
  const slots = rack.shelves.reduce((sum, shelf) => sum + shelf.capacity, 0);
  const used = rack.shelves.reduce(
    (sum, shelf) => sum + shelf.pallets.reduce((s, p) => s + p.shelfSpots, 0),
    0,
  );
  return { slots, used, level: rackFillLevel(used, slots) };
}

/**
 * The warehouse floor to scale, with the VAULTS block and the racks coloured by how full they are; below it every
 * rack as a full-size button with its whole name, which is how a finger picks a rack drawn a few pixels wide.
 */
export function RackFloorPlan({
  warehouse,
  racks,
  selectedId,
  onSelect,
  matches,
}: {
  warehouse: WarehouseDto;
  racks: RackDto[];
  selectedId: number | undefined;
  onSelect: (rackId: number) => void;
  /** racks a search found; null when no search is active */
  matches: Set<number> | null;
}) {
  const floor = { width: warehouse.width, length: warehouse.length };
  const { ref: frame, scale: fitted } = usePlanScale(floor, PLAN_HEIGHT);
  const touch = useCoarsePointer();
  const { ref: scrollerRef, overflows, atEnd } = useSidewaysOverflow();
  // on a touch screen the plan is drawn larger, up to a height, for its narrowest rack to be a finger wide: racks
  // keep their true size and place instead of growing into each other, and the plan scrolls sideways
  const narrowest = Math.min(...racks.map((r) => Math.min(r.position.width, r.position.length)));
  const scale =
    touch && narrowest > 0 && Number.isFinite(narrowest)
      ? Math.max(fitted, Math.min(TAP / narrowest, touchHeight() / floor.length))
      : fitted;

  if (!(floor.width > 0 && floor.length > 0)) {
    return (
      <p
        ref={frame}
        className="rounded-lg border border-dashed border-slate-300 p-6 text-center text-sm text-slate-500"
      >
        Set this warehouse's length and width to see its floor plan.
      </p>
    );
  }

  return (
    <div ref={frame} className="w-full space-y-3">
      <div ref={scrollerRef} className="w-full overflow-x-auto">
        <div
          role="group"
          aria-label="Warehouse floor plan"
          className="relative mx-auto rounded border-2 border-slate-500 bg-white"
          style={floorPlanStyle(floor, scale)}
        >
          <VaultsBlock warehouse={warehouse} floor={floor} scale={scale} />
          {racks.map((rack) => {
            const { level } = rackFill(rack);
            const dimmed = matches !== null && !matches.has(rack.id);
            const found = matches?.has(rack.id) ?? false;
            const selected = rack.id === selectedId;
            const vertical = rack.position.length > rack.position.width;
            const box = {
              left: rack.position.x * scale,
              top: rack.position.y * scale,
              width: rack.position.width * scale,
              height: rack.position.length * scale,
            };
            // on a touch screen a rack drawn smaller than a finger grows around its centre to 44 px and to its
            // whole name (at most 9rem), kept inside the plan
            const style = touch
              ? {
                  left: Math.min(Math.max(box.left + box.width / 2, TAP / 2), floor.width * scale - TAP / 2),
                  top: Math.min(Math.max(box.top + box.height / 2, TAP / 2), floor.length * scale - TAP / 2),
                  minWidth: Math.max(box.width, TAP),
                  minHeight: Math.max(box.height, TAP),
                  transform: 'translate(-50%, -50%)',
                }
              : box;
            return (
              <button
                key={rack.id}
                type="button"
                onClick={() => onSelect(rack.id)}
                aria-pressed={selected}
                aria-label={rackTitle(rack.name)}
                title={rack.name}
                className={`absolute flex items-center justify-center overflow-hidden rounded-sm border text-[11px] leading-tight font-semibold shadow-sm transition ${touch ? 'max-w-36 px-1.5 text-xs' : ''} focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent ${FILL_CLASSES[level]} ${
                  selected ? 'ring-4 ring-accent' : ''
                } ${dimmed ? 'opacity-40 grayscale' : ''} ${found ? 'z-10 ring-4 ring-accent/80 shadow-lg' : ''}`}
                style={style}
              >
                <span
                  className={
                    touch && !vertical
                      ? 'line-clamp-2 text-center [overflow-wrap:anywhere]'
                      : `max-h-full max-w-full truncate px-0.5 ${vertical ? '[writing-mode:vertical-rl]' : ''}`
                  }
                >
                  {rack.name}
                </span>
              </button>
            );
          })}
        </div>
      </div>
      {overflows && (
        <p className="text-right text-xs text-slate-600">
          {atEnd ? 'The whole floor seen; swipe back' : 'Swipe sideways for the whole floor'}
        </p>
      )}
      <PlanItemList
        label="Racks"
        onPick={onSelect}
        items={racks.map((rack) => {
          const { level, used, slots } = rackFill(rack);
          return {
            id: rack.id,
            name: rack.name,
            detail: `${used} of ${slots} spaces used`,
            swatchClass: SWATCH[level],
            selected: rack.id === selectedId,
            dimmed: matches !== null && !matches.has(rack.id),
          };
        })}
      />
    </div>
  );
}
