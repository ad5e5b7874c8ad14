import { MousePointerClick } from 'lucide-react';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useParams } from 'react-router';
import { warehouseSlug } from '../../../../../domain/rules/text';
import { matchingFieldIds } from '../../../../../domain/rules/search';
import type { WarehouseDto } from '../../../../../domain/schemas/warehouse.schema';
import { useSession } from '../../../api/session';
import { useField, useWarehouse, useWarehouses } from '../../../api/warehouses';
import { ErrorList } from '../../../components/ui/error-list';
import { Page } from '../../../components/ui/page';
import { Spinner } from '../../../components/ui/spinner';
import { errorMessages } from '../../../lib/api-client';
import {
  useWarehouseViewState,
  warehouseViewState,
  type WarehouseView,
} from '../../../lib/warehouse-view-state';
import { FIELD_DETAIL_ID, FieldGrid, FillLegend } from '../components/field-grid';
import { FieldPanel } from '../components/field-panel';
import { SegmentedToggle } from '../../../components/ui/segmented-toggle';

/** The warehouse view; the router hands in the Rack View so this feature does not import another. */
export default function WarehousePage({ rackView }: { rackView: (warehouse: WarehouseDto) => ReactNode }) {
  const { warehouseName = '' } = useParams();
  const session = useSession();
  const warehouses = useWarehouses(session.data?.companyId);
  const summary = warehouses.data?.find(
    (w) => (w.slug ?? warehouseSlug(w.name)) === warehouseName.toLowerCase(),
  );
  const detail = useWarehouse(summary?.id);
  const { view } = useWarehouseViewState();

  // search and view belong to the warehouse on screen: start fresh for each one and on leaving
  useEffect(() => () => warehouseViewState.reset(), [summary?.id]);

  if (warehouses.isPending || (summary && detail.isPending)) return <Spinner label="Loading warehouse..." />;
  if (!summary || detail.isError || !detail.data) {
    const errors = warehouses.isError ? warehouses.error : detail.error;
    return (
      <Page title="Warehouse">
        <div className="rounded-xl border border-slate-200 bg-white p-6 text-center shadow-sm">
          <p className="text-lg font-semibold text-slate-700">Warehouse could not be fetched</p>
          {errors && (
            <div className="mt-3 text-left">
              <ErrorList messages={errorMessages(errors)} />
            </div>
          )}
        </div>
      </Page>
    );
  }

  const warehouse = detail.data;
  return (
    <Page
      title={warehouse.name}
      actions={
        <SegmentedToggle<WarehouseView>
          label="View"
          options={[
            { value: 'vault', label: 'Vault View' },
            { value: 'rack', label: 'Rack View' },
          ]}
          value={view}
          onChange={(next) => warehouseViewState.setView(next)}
        />
      }
    >
      {view === 'rack' ? rackView(warehouse) : <VaultView key={warehouse.id} warehouse={warehouse} />}
    </Page>
  );
}

function VaultView({ warehouse }: { warehouse: WarehouseDto }) {
  const { search } = useWarehouseViewState();
  // keyed by warehouse in the parent, so another warehouse starts with nothing selected
  const [selectedId, setSelectedId] = useState<number | undefined>(undefined);
  const listed = selectedId !== undefined ? warehouse.fields[selectedId] : undefined;
  const fresh = useField(listed ? warehouse.id : undefined, listed?.id, listed);
  const selected = listed ? (fresh.data ?? listed) : undefined;
  const highlighted = search ? matchingFieldIds(warehouse, search) : null;
  const hasFields = Object.keys(warehouse.fields).length > 0;
  const panelRef = useRef<HTMLDivElement>(null);

  // on a tablet the panel sits below the grid: bring the chosen field's slots into view
  useEffect(() => {
    if (selectedId === undefined || window.matchMedia('(min-width: 1024px)').matches) return;
    panelRef.current?.scrollIntoView({ behavior: 'smooth', block: 'nearest' });
  }, [selectedId]);

  if (!hasFields) {
    return (
      <p className="rounded-xl border border-dashed border-slate-300 bg-white p-8 text-center text-slate-500">
        This warehouse does not have any fields
      </p>
    );
  }

  return (
    <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
      <div className="min-w-0 space-y-3 rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <p className="text-sm text-slate-500">
            {warehouse.cols} x {warehouse.rows} fields, {warehouse.fieldCapacity} vaults each
          </p>
          <FillLegend />
        </div>
        <FieldGrid
          warehouse={warehouse}
          selectedFieldId={selected?.id}
          onSelect={setSelectedId}
          highlighted={highlighted}
        />
      </div>
      <div
        ref={panelRef}
        id={FIELD_DETAIL_ID}
        tabIndex={-1}
        className="scroll-mt-16 rounded-xl focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-accent"
      >
        {selected ? (
          <FieldPanel warehouse={warehouse} field={selected} />
        ) : (
          <div className="flex flex-col items-center rounded-xl border border-dashed border-slate-300 bg-white px-6 py-10 text-center text-slate-500">
            <MousePointerClick className="h-8 w-8 text-slate-300" aria-hidden />
            <p className="mt-2">Select a field to view its info</p>
          </div>
        )}
      </div>
    </div>
  );
}
