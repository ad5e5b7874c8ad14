import { ChevronLeft, ChevronRight, Plus } from 'lucide-react';
import { firstFreeRun, freeSpots, shelfCells } from '@domain/rules/rack-placement';
import { HoldBadge } from '@/components/billing/hold-badge';
import { fullShelfMessage, type PalletDto, type RackDto, type ShelfDto } from '@domain/schemas/rack.schema';
import { useRole } from '@/api/session';
import { useAlertMessage } from '@/components/ui/alert-message';
import { RoleHint } from '@/components/ui/role-hint';
import { truncate } from '@domain/rules/text';
import { useSidewaysOverflow } from '@/lib/use-overflow';

function spansOf(shelf: ShelfDto) {
  return shelf.pallets.map((p) => ({ id: p.id, slotIndex: p.slotIndex, spots: p.shelfSpots }));
}

/**
 * One shelf's slots, each 36 units (9rem) wide as the spec's rack cell. Pallet labels (the spec's 8 and 10 characters)
 * wrap instead of being cut again by the cell; a shelf wider than the screen scrolls sideways and says so until its
 * last slot is in view.
 */
function ShelfSlots({
  shelf,
  canWork,
  palletMatches,
  onAdd,
  onEdit,
}: {
  shelf: ShelfDto;
  canWork: boolean;
  palletMatches: Set<number> | null;
  onAdd: (shelf: ShelfDto, slotIndex: number) => void;
  onEdit: (shelf: ShelfDto, pallet: PalletDto) => void;
}) {
  const cells = shelfCells(shelf.capacity, spansOf(shelf));
  const { ref: scrollerRef, overflows, atEnd } = useSidewaysOverflow();
  const hintId = `shelf-${shelf.id}-scroll-hint`;
  return (
    <div className="relative">
      <div
        ref={scrollerRef}
        className="overflow-x-auto pb-1 [--slot:9rem]"
        aria-describedby={overflows ? hintId : undefined}
      >
        <div className="flex gap-1" style={{ minWidth: `calc(var(--slot) * ${shelf.capacity})` }}>
          {cells.map((cell) => {
            const width = { width: `calc(var(--slot) * ${cell.kind === 'pallet' ? cell.spots : 1})` };
            if (cell.kind === 'free') {
              return (
                <button
                  key={`free-${cell.slotIndex}`}
                  type="button"
                  style={width}
                  onClick={() => onAdd(shelf, cell.slotIndex)}
                  disabled={!canWork}
                  aria-label={`Add pallet to shelf ${shelf.position}, slot ${cell.slotIndex + 1}`}
                  className="flex min-h-16 shrink-0 items-center justify-center rounded-md border-2 border-dashed border-slate-300 bg-white text-xs font-medium text-slate-600 hover:border-accent hover:text-accent focus-visible:outline-2 focus-visible:outline-accent disabled:cursor-not-allowed disabled:hover:border-slate-300 disabled:hover:text-slate-600"
                >
                  + Add Pallet
                </button>
              );
            }
            const pallet = shelf.pallets[cell.palletIndex]!;
            const dimmed = palletMatches !== null && !palletMatches.has(pallet.id);
            const found = palletMatches?.has(pallet.id) ?? false;
            return (
              <button
                key={pallet.id}
                type="button"
                style={width}
                onClick={() => onEdit(shelf, pallet)}
                title={[pallet.customerName, pallet.name, pallet.palletNumber].filter(Boolean).join(' · ')}
                className={`relative flex min-h-16 shrink-0 flex-col justify-center rounded-md border border-primary/30 bg-primary px-2 py-1.5 text-left text-white shadow-sm transition hover:bg-primary-light focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent ${
                  dimmed ? 'opacity-40 grayscale' : ''
                } ${found ? 'ring-4 ring-accent shadow-[0_0_12px_rgba(37,99,235,0.8)]' : ''}`}
              >
                {/* the name is the visible text, so a screen reader says what is shown; the title (its description) is
                    the whole name */}
                <span className="sr-only">Pallet </span>
                <span className="pr-5 text-xs leading-tight font-semibold [overflow-wrap:anywhere]">
                  {truncate(pallet.customerName, 8)}
                  {pallet.name ? ` - ${truncate(pallet.name, 10)}` : ''}
                </span>
                {pallet.palletNumber && (
                  <span className="mt-0.5 text-[11px] leading-tight [overflow-wrap:anywhere] text-white/85">
                    <span className="sr-only"> number </span>
                    {pallet.palletNumber}
                  </span>
                )}
                <span className="absolute top-1 right-1">
                  <HoldBadge palletId={pallet.id} compact />
                </span>
              </button>
            );
          })}
        </div>
      </div>
      {overflows && (
        <p id={hintId} className="mt-1 flex items-center justify-end gap-1 px-1 text-xs text-slate-600">
          {atEnd ? (
            <>
              <ChevronLeft className="h-3.5 w-3.5" aria-hidden /> All {shelf.capacity} slots seen; swipe back
            </>
          ) : (
            <>
              Swipe sideways for all {shelf.capacity} slots{' '}
              <ChevronRight className="h-3.5 w-3.5" aria-hidden />
            </>
          )}
        </p>
      )}
      {overflows && !atEnd && (
        <div
          aria-hidden
          className="pointer-events-none absolute top-0 right-0 bottom-6 w-8 bg-gradient-to-l from-slate-50 to-transparent"
        />
      )}
    </div>
  );
}

/** The selected rack's shelves, top shelf first, each a row of pallet slots. */
export function RackShelves({
  rack,
  palletMatches,
  onAdd,
  onEdit,
}: {
  rack: RackDto;
  /** pallets a search found; null when no search is active */
  palletMatches: Set<number> | null;
  onAdd: (shelf: ShelfDto, slotIndex: number) => void;
  onEdit: (shelf: ShelfDto, pallet: PalletDto) => void;
}) {
  const shelves = [...rack.shelves].sort((a, b) => a.position - b.position);
  const alert = useAlertMessage();
  // a Viewer sees the pallets but cannot add them (the server refuses it too)
  const canWork = useRole().can('floor');

  function addToShelf(shelf: ShelfDto) {
    const spans = spansOf(shelf);
    const slot = freeSpots(shelf.capacity, spans) > 0 ? firstFreeRun(shelf.capacity, spans, 1) : null;
    if (slot === null) {
      alert.show('Shelf Full', fullShelfMessage(shelf.capacity));
      return;
    }
    onAdd(shelf, slot);
  }

  if (shelves.length === 0) {
    return <p className="p-4 text-sm text-slate-500">This rack has no shelves.</p>;
  }

  return (
    <div className="space-y-3">
      {!canWork && <RoleHint needed="floor" />}
      {shelves.map((shelf) => {
        const free = freeSpots(shelf.capacity, spansOf(shelf));
        const full = free === 0;
        const fullNoteId = `rack-${rack.id}-shelf-${shelf.id}-full`;
        return (
          <div
            key={shelf.id}
            className={`rounded-lg border p-2 ${full ? 'border-full/60 bg-red-50' : 'border-slate-200 bg-slate-50'}`}
            aria-label={`Shelf ${shelf.position}`}
            role="group"
            data-full={full}
          >
            <div className="mb-2 flex flex-wrap items-center justify-between gap-2 px-1">
              <span className="text-xs font-semibold tracking-wide text-slate-600 uppercase">
                Shelf {shelf.position} · {shelf.capacity - free}/{shelf.capacity} spaces used
                {full && (
                  <span className="ml-2 rounded bg-full px-1.5 py-0.5 text-[11px] tracking-normal text-white normal-case">
                    Full
                  </span>
                )}
              </span>
              <span className="flex flex-wrap items-center justify-end gap-2">
                {full && (
                  <span id={fullNoteId} className="text-xs text-red-800">
                    {fullShelfMessage(shelf.capacity)}
                  </span>
                )}
                <button
                  type="button"
                  onClick={() => addToShelf(shelf)}
                  disabled={full || !canWork}
                  aria-describedby={full ? fullNoteId : undefined}
                  aria-label={`Add pallet to shelf ${shelf.position}`}
                  className="inline-flex min-h-9 pointer-coarse:min-h-11 items-center gap-1 rounded-md px-2 text-xs font-semibold text-accent hover:bg-blue-50 focus-visible:outline-2 focus-visible:outline-accent disabled:cursor-not-allowed disabled:text-slate-400 disabled:hover:bg-transparent"
                >
                  <Plus className="h-3.5 w-3.5" aria-hidden /> Add Pallet
                </button>
              </span>
            </div>
            <ShelfSlots
              shelf={shelf}
              canWork={canWork}
              palletMatches={palletMatches}
              onAdd={onAdd}
              onEdit={onEdit}
            />
          </div>
        );
      })}
      {alert.element}
    </div>
  );
}
