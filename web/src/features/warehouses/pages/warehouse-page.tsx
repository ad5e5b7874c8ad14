import { MousePointerClick } from 'lucide-react';
import {
  lazy,
  type ReactNode,
  type RefObject,
  Suspense,
  useDeferredValue,
  useEffect,
  useRef,
  useState,
} from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { matchingFieldIds } from '@domain/rules/search';
import type { WarehouseDto } from '@domain/schemas/warehouse.schema';
import { useField, useWarehouse, useWarehouseBySlug } from '@/api/warehouses';
import { buttonClass } from '@/components/ui/button';
import { ErrorList } from '@/components/ui/error-list';
import { paths } from '@/config/paths';
import { Page } from '@/components/ui/page';
import { Spinner } from '@/components/ui/spinner';
import { errorMessages } from '@/lib/api-client';
import { useWarehouseViewState, warehouseViewState, type WarehouseView } from '@/lib/warehouse-view-state';
import { FIELD_DETAIL_ID, FieldGrid, FillLegend } from '../components/field-grid';
import { SegmentedToggle } from '@/components/ui/segmented-toggle';
import { useDocumentTitle } from '@/lib/use-document-title';

// the panel of a chosen field (its dialogs and forms) loads once a field is chosen, not with the first screen
const FieldPanel = lazy(() => import('../components/field-panel').then((m) => ({ default: m.FieldPanel })));

/** The warehouse view; the router hands in the Rack View so this feature does not import another. */
export default function WarehousePage({ rackView }: { rackView: (warehouse: WarehouseDto) => ReactNode }) {
  const { warehouseName = '' } = useParams();
  const { warehouses, summary } = useWarehouseBySlug(warehouseName);
  const detail = useWarehouse(summary?.id);
  // the grid is drawn from a deferred copy: React draws it in slices between which the browser stays responsive
  // (a query's answer alone would draw it in one long task), on the first screen and on every live refresh; when the
  // page's HTML brought the warehouse, the first render shows its name and the grid follows in the background
  const shown = useDeferredValue(detail.data, undefined);
  const { view } = useWarehouseViewState();
  useDocumentTitle(
    warehouses.isPending || (summary && detail.isPending)
      ? undefined
      : (detail.data?.name ?? 'Warehouse not found'),
  );

  // search and view belong to the warehouse on screen: start fresh for each one and on leaving
  useEffect(() => () => warehouseViewState.reset(), [summary?.id]);
  // the company-wide find opens a pallet in Rack View (?view=rack&rack=..)
  const [params] = useSearchParams();
  const viewParam = params.get('view');
  const rackParam = params.get('rack');
  useEffect(() => {
    if (viewParam === 'rack') warehouseViewState.setView('rack');
  }, [viewParam, rackParam, summary?.id]);

  if (warehouses.isPending) return <Spinner label="Loading warehouse..." />;
  // the name is known from the company list: show it while the fields load
  if (summary && (detail.isPending || (detail.data && !shown)))
    return (
      <Page title={summary.name}>
        <Spinner label="Loading warehouse..." />
      </Page>
    );
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
          <Link to={paths.dashboard} className={buttonClass('secondary', 'mt-4')}>
            Back to warehouses
          </Link>
        </div>
      </Page>
    );
  }

  // a warehouse shown before stays on screen while the next one (or its refresh) is drawn in the background
  const warehouse = shown?.id === summary.id ? shown : detail.data;
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

/**
 * Below the laptop's two columns the field's panel sits under the grid: once it has loaded, its top (name, slots,
 * '+ Add Vault', Stage) is scrolled to just under the top bar, so one tap on a field shows what can be done with it.
 */
function BringIntoView({ target }: { target: RefObject<HTMLElement | null> }) {
  useEffect(() => {
    if (window.matchMedia('(min-width: 1024px)').matches) return;
    target.current?.scrollIntoView({ block: 'start' });
  }, [target]);
  return null;
}

function VaultView({ warehouse }: { warehouse: WarehouseDto }) {
  const { search } = useWarehouseViewState();
  // keyed by warehouse in the parent, so another warehouse starts with nothing selected; the address keeps the
  // chosen field (?field=A3), so it is still chosen after a vault is saved on its edit page and on reload
  const [params, setParams] = useSearchParams();
  const fieldParam = params.get('field');
  const fieldNamed = (name: string | null) =>
    name ? Object.values(warehouse.fields).find((f) => f.name === name)?.id : undefined;
  const [selectedId, setSelected] = useState<number | undefined>(() => fieldNamed(fieldParam));
  // a new address on the same page (a field found with Find) chooses its field
  const [seenParam, setSeenParam] = useState(fieldParam);
  if (seenParam !== fieldParam) {
    setSeenParam(fieldParam);
    const named = fieldNamed(fieldParam);
    if (named !== undefined) setSelected(named);
  }
  const setSelectedId = (id: number) => {
    setSelected(id);
    const name = warehouse.fields[id]?.name;
    if (name) setParams({ field: name }, { replace: true });
  };
  const listed = selectedId !== undefined ? warehouse.fields[selectedId] : undefined;
  const fresh = useField(listed ? warehouse.id : undefined, listed?.id, listed);
  const selected = listed ? (fresh.data ?? listed) : undefined;
  const highlighted = search ? matchingFieldIds(warehouse, search) : null;
  const hasFields = Object.keys(warehouse.fields).length > 0;
  const panelRef = useRef<HTMLDivElement>(null);

  if (!hasFields) {
    return (
      <p className="rounded-xl border border-dashed border-slate-300 bg-white p-8 text-center text-slate-500">
        This warehouse does not have any fields
      </p>
    );
  }

  return (
    <div className="grid grid-cols-[minmax(0,1fr)] items-start gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
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
        className="scroll-mt-[calc(var(--top-bar-height,3.5rem)_+_0.5rem)] rounded-xl focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-accent"
      >
        {selected ? (
          <Suspense fallback={<Spinner />}>
            <FieldPanel warehouse={warehouse} field={selected} />
            <BringIntoView key={selected.id} target={panelRef} />
          </Suspense>
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
