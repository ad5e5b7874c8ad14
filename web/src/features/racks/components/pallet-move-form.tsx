import { type FormEvent, useState } from 'react';
import { toast } from 'sonner';
import { fittingSlots, rackTitle } from '@domain/rules/rack-placement';
import { naturalCompare } from '@domain/rules/text';
import type { PalletDto, RackDto, ShelfDto } from '@domain/schemas/rack.schema';
import { useMovePallet, useRacks } from '@/api/racks';
import { ErrorList } from '@/components/ui/error-list';
import { FormButtons } from '@/components/ui/form-buttons';
import { FormField, SelectInput } from '@/components/ui/form-field';
import { Spinner } from '@/components/ui/spinner';
import { ApiError, changedMeanwhile } from '@/lib/api-client';
import { ChangedMeanwhile } from '@/components/ui/changed-meanwhile';

interface Spot {
  rack: RackDto;
  shelf: ShelfDto;
  /** slots the pallet can start at on this shelf, its own spots counted free */
  starts: number[];
}

const slotText = (start: number, spots: number) =>
  spots === 1 ? `Slot ${start + 1}` : `Slots ${start + 1}–${start + spots}`;

/** Every shelf of the warehouse with the slots the pallet could start at; racks in natural order, top shelf first. */
function spotsFor(racks: RackDto[], pallet: PalletDto): Spot[] {
  return [...racks]
    .sort((a, b) => naturalCompare(a.name, b.name))
    .flatMap((rack) =>
      [...rack.shelves]
        .sort((a, b) => a.position - b.position)
        .map((shelf) => {
          const spans = shelf.pallets.map((p) => ({ id: p.id, slotIndex: p.slotIndex, spots: p.shelfSpots }));
          // where it stands now is no move
          const starts = fittingSlots(shelf.capacity, spans, pallet.shelfSpots, pallet.id).filter(
            (start) => !(shelf.id === pallet.shelfId && start === pallet.slotIndex),
          );
          return { rack, shelf, starts };
        }),
    );
}

/**
 * The pallet dialog's Move step: a rack, a shelf and a slot of the same warehouse where the pallet's spaces are free.
 * Shelves without room are shown but cannot be chosen; the server checks the space again when the pallet moves.
 */
export function PalletMoveForm({
  warehouseId,
  pallet,
  onBack,
  onMoved,
  onReload,
}: {
  warehouseId: number;
  pallet: PalletDto;
  onBack: () => void;
  onMoved: (rackId: number) => void;
  /** opens the pallet anew as it is now, after someone else changed it */
  onReload: () => void;
}) {
  const racks = useRacks(warehouseId);
  const movePallet = useMovePallet(warehouseId);
  const [choice, setChoice] = useState<{ shelfId: number; slot: number } | null>(null);
  const [errors, setErrors] = useState<string[]>([]);

  if (racks.isPending) return <Spinner label="Loading shelves..." />;
  const spots = spotsFor(racks.data ?? [], pallet);
  const here = spots.find((s) => s.shelf.id === pallet.shelfId);
  const open = spots.filter((s) => s.starts.length > 0);
  // the first shelf with room on the pallet's own rack, else anywhere in the warehouse
  const fallback = open.find((s) => s.rack.id === here?.rack.id) ?? open[0];
  const chosen = choice ? spots.find((s) => s.shelf.id === choice.shelfId) : fallback;
  // the slot chosen while it is still free (the shelves reload after a refusal), else the first that is
  const slot = choice && chosen?.starts.includes(choice.slot) ? choice.slot : chosen?.starts[0];
  const label = pallet.name || pallet.palletNumber || pallet.customerName;
  const spaces = `${pallet.shelfSpots} ${pallet.shelfSpots === 1 ? 'space' : 'spaces'}`;

  const chooseShelf = (spot: Spot | undefined) =>
    spot && setChoice({ shelfId: spot.shelf.id, slot: spot.starts[0] ?? 0 });

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!chosen || slot === undefined) return;
    setErrors([]);
    movePallet.mutate(
      { palletId: pallet.id, shelf_id: chosen.shelf.id, slot_index: slot, version: pallet.version },
      {
        onSuccess: () => {
          toast.success(
            `Pallet ${label} moved to ${rackTitle(chosen.rack.name)}, shelf ${chosen.shelf.position}, ${slotText(slot, pallet.shelfSpots).toLowerCase()}.`,
          );
          onMoved(chosen.rack.id);
        },
        onError: (error) => {
          setErrors(
            error instanceof ApiError && error.status < 500 ? error.messages : ['Failed to move pallet'],
          );
        },
      },
    );
  }

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-3" aria-label="Move Pallet">
      <p className="text-sm text-slate-700">
        Move <strong>{label}</strong> ({spaces}){' '}
        {here && (
          <>
            from {rackTitle(here.rack.name)}, shelf {here.shelf.position},{' '}
            {slotText(pallet.slotIndex, pallet.shelfSpots).toLowerCase()}
          </>
        )}{' '}
        to:
      </p>
      {open.length === 0 || !chosen ? (
        <p className="rounded-lg bg-amber-50 p-3 text-sm text-amber-900" role="status">
          No shelf in this warehouse has {spaces} free in a row. Free some space or add a shelf first.
        </p>
      ) : (
        <>
          <FormField label="Rack">
            <SelectInput
              value={String(chosen.rack.id)}
              onValue={(id) =>
                chooseShelf(
                  open.find((s) => s.rack.id === Number(id)) ?? spots.find((s) => s.rack.id === Number(id)),
                )
              }
            >
              {[...new Map(spots.map((s) => [s.rack.id, s.rack])).values()].map((rack) => {
                const room = open.some((s) => s.rack.id === rack.id);
                return (
                  <option key={rack.id} value={rack.id} disabled={!room}>
                    {rack.name}
                    {room ? '' : ' (no room)'}
                  </option>
                );
              })}
            </SelectInput>
          </FormField>
          <FormField label="Shelf">
            <SelectInput
              value={String(chosen.shelf.id)}
              onValue={(id) => chooseShelf(spots.find((s) => s.shelf.id === Number(id)))}
            >
              {spots
                .filter((s) => s.rack.id === chosen.rack.id)
                .map((s) => {
                  const used = s.shelf.pallets.reduce((sum, p) => sum + p.shelfSpots, 0);
                  return (
                    <option key={s.shelf.id} value={s.shelf.id} disabled={s.starts.length === 0}>
                      Shelf {s.shelf.position}: {s.shelf.capacity - used} of {s.shelf.capacity} free
                      {s.starts.length === 0 ? ' (no room)' : ''}
                    </option>
                  );
                })}
            </SelectInput>
          </FormField>
          <FormField label="Slot">
            <SelectInput
              value={String(slot)}
              onValue={(start) => setChoice({ shelfId: chosen.shelf.id, slot: Number(start) })}
            >
              {chosen.starts.map((start) => (
                <option key={start} value={start}>
                  {slotText(start, pallet.shelfSpots)}
                </option>
              ))}
            </SelectInput>
          </FormField>
        </>
      )}
      {errors.length > 0 && <ErrorList messages={errors} className="text-sm font-medium text-danger" />}
      {changedMeanwhile(movePallet.error) && <PalletChanged onReload={onReload} />}
      <FormButtons
        submit="Move Pallet"
        busy="Moving..."
        pending={movePallet.isPending}
        disabled={!chosen || slot === undefined || chosen.starts.length === 0}
        onCancel={onBack}
      />
    </form>
  );
}

/** After a refusal because someone else changed the pallet: open it anew as it is now. */
export function PalletChanged({ onReload }: { onReload: () => void }) {
  return (
    <ChangedMeanwhile reload="Show it as it is now" onReload={onReload}>
      Nothing was saved. Open the pallet as it is now, then make your change again.
    </ChangedMeanwhile>
  );
}
