import { MousePointerClick } from 'lucide-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { matchingRacksAndPallets } from '@domain/rules/search';
import type { WarehouseDto } from '@domain/schemas/warehouse.schema';
import { useRacks } from '@/api/racks';
import { ErrorList } from '@/components/ui/error-list';
import { Spinner } from '@/components/ui/spinner';
import { errorMessages } from '@/lib/api-client';
import { useWarehouseViewState } from '@/lib/warehouse-view-state';
import { PalletDialog, type PalletTarget } from './pallet-dialog';
import { RackFloorPlan, rackFill } from './rack-floor-plan';
import { RackShelves } from './rack-shelves';

const LEGEND = [
  { label: 'Under half full', className: 'bg-success' },
  { label: 'Over half full', className: 'bg-warning' },
  { label: 'Full', className: 'bg-full' },
];

/** Rack View of a warehouse: floor plan of racks, the selected rack's shelves and pallets. */
export function RackView({ warehouse }: { warehouse: WarehouseDto }) {
  const racks = useRacks(warehouse.id);
  const { search } = useWarehouseViewState();
  // the company-wide find opens a pallet here: ?rack=..&pallet=.. chooses its rack and marks it
  const [params] = useSearchParams();
  const [selectedId, setSelected] = useState<number | undefined>(
    () => Number(params.get('rack')) || undefined,
  );
  const foundPallet = Number(params.get('pallet')) || undefined;
  const [seenRack, setSeenRack] = useState(params.get('rack'));
  if (seenRack !== params.get('rack')) {
    setSeenRack(params.get('rack'));
    if (Number(params.get('rack'))) setSelected(Number(params.get('rack')));
  }
  const detailRef = useRef<HTMLElement>(null);
  // a tap on the floor plan (below the detail on a tablet or phone) brings the rack's shelves into view
  const [tapped, setTapped] = useState(0);
  const setSelectedId = (id: number) => {
    setSelected(id);
    setTapped((n) => n + 1);
  };
  useEffect(() => {
    if (tapped === 0 || window.matchMedia('(min-width: 1024px)').matches) return;
    detailRef.current?.scrollIntoView({ block: 'start' });
  }, [tapped]);
  const [target, setTarget] = useState<PalletTarget | null>(null);
  // each reopening of the pallet dialog with the pallet as it is now (after someone else changed it) remounts it
  const [openings, setOpenings] = useState(0);

  /** The pallet as the server has it now, where it stands now; gone, the dialog closes with a word why. */
  async function reopen(palletId: number) {
    const fresh = (await racks.refetch()).data ?? [];
    const shelf = fresh.flatMap((r) => r.shelves).find((s) => s.pallets.some((p) => p.id === palletId));
    const pallet = shelf?.pallets.find((p) => p.id === palletId);
    if (!shelf || !pallet) {
      setTarget(null);
      toast.error('This pallet was deleted meanwhile.');
      return;
    }
    setSelected(fresh.find((r) => r.shelves.some((s) => s.id === shelf.id))?.id);
    setTarget({ shelf, slotIndex: pallet.slotIndex, pallet });
    setOpenings((n) => n + 1);
  }

  const matches = useMemo(
    () => (search && racks.data ? matchingRacksAndPallets(racks.data, search) : null),
    [search, racks.data],
  );

  if (racks.isPending) return <Spinner label="Loading racks..." />;
  if (racks.isError) {
    return <ErrorList messages={[`Failed to fetch racks: ${errorMessages(racks.error).join(' ')}`]} />;
  }

  const list = racks.data;
  const selected = list.find((rack) => rack.id === selectedId);
  const fill = selected ? rackFill(selected) : null;
  // the dialog follows the racks as they reload, so an edit shows the pallet as it is now
  const liveShelf = target?.shelf
    ? (list.flatMap((r) => r.shelves).find((s) => s.id === target.shelf!.id) ?? null)
    : null;

  return (
    <div className="space-y-6">
      <section
        ref={detailRef}
        aria-label="Selected rack"
        className="scroll-mt-[calc(var(--top-bar-height,3.5rem)_+_0.5rem)] rounded-xl border border-slate-200 bg-white p-4 shadow-sm"
      >
        {selected && fill ? (
          <>
            <div className="mb-3 flex flex-wrap items-baseline justify-between gap-2">
              <h2 className="text-lg font-bold text-primary">{selected.name}</h2>
              <p className="text-sm text-slate-500">
                {selected.shelves.length} shelves · {fill.used} of {fill.slots} spaces used
              </p>
            </div>
            <RackShelves
              rack={selected}
              palletMatches={matches ? matches.palletIds : foundPallet ? new Set([foundPallet]) : null}
              onAdd={(shelf, slotIndex) => setTarget({ shelf, slotIndex, pallet: null })}
              onEdit={(shelf, pallet) => setTarget({ shelf, slotIndex: pallet.slotIndex, pallet })}
            />
          </>
        ) : (
          <div className="flex flex-col items-center px-6 py-8 text-center text-slate-500">
            <MousePointerClick className="h-8 w-8 text-slate-300" aria-hidden />
            <p className="mt-2">Select a rack to view its info</p>
          </div>
        )}
      </section>

      <section aria-label="Floor plan" className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
        <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
          <p className="text-sm text-slate-500">
            {warehouse.width} x {warehouse.length} ft · {list.length} {list.length === 1 ? 'rack' : 'racks'}
          </p>
          <ul className="flex flex-wrap gap-3 text-xs text-slate-600" aria-label="Rack colours">
            {LEGEND.map((item) => (
              <li key={item.label} className="flex items-center gap-1.5">
                <span className={`h-3 w-3 rounded-sm ${item.className}`} aria-hidden />
                {item.label}
              </li>
            ))}
          </ul>
        </div>
        {list.length === 0 && (
          <p className="mb-3 rounded-lg bg-slate-50 p-3 text-sm text-slate-500">
            This warehouse has no racks yet. Add them under Edit Warehouse Layout on the warehouse's edit
            page.
          </p>
        )}
        <RackFloorPlan
          warehouse={warehouse}
          racks={list}
          selectedId={selected?.id}
          onSelect={setSelectedId}
          matches={matches ? matches.rackIds : null}
        />
      </section>

      {target && (
        <PalletDialog
          key={`${target.shelf?.id}-${target.slotIndex}-${target.pallet?.id ?? 'new'}-${openings}`}
          warehouseId={warehouse.id}
          target={{ ...target, shelf: target.shelf ? liveShelf : null }}
          onClose={() => setTarget(null)}
          onMoved={setSelected}
          onReload={() => target.pallet && void reopen(target.pallet.id)}
        />
      )}
    </div>
  );
}
