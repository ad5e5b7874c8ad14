import { ArrowLeft } from 'lucide-react';
import { Link, useParams } from 'react-router';
import { useRole } from '@/api/session';
import { RoleHint } from '@/components/ui/role-hint';
import { useWarehouse, useWarehouseBySlug } from '@/api/warehouses';
import { buttonClass } from '@/components/ui/button';
import { ErrorList } from '@/components/ui/error-list';
import { Page } from '@/components/ui/page';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { errorMessages } from '@/lib/api-client';
import { DimensionsForm } from '../components/dimensions-form';
import { FieldGridPlacement } from '../components/field-grid-placement';
import { GridEditor } from '../components/grid-editor';
import { RackLayoutEditor } from '../components/rack-layout-editor';
import { useDocumentTitle } from '@/lib/use-document-title';
import { Panel } from '@/components/ui/panel';

/** /edit/{warehouse}: capacity and dimensions, the field grid and its place on the floor, and the racks. */
export default function EditWarehousePage() {
  const { warehouseName = '' } = useParams();
  const { warehouses, summary } = useWarehouseBySlug(warehouseName);
  const detail = useWarehouse(summary?.id);
  const { can } = useRole();
  useDocumentTitle(detail.data ? `Edit ${detail.data.name}` : 'Edit Warehouse');

  // the layout, dimensions, rows and racks are a Manager's (the server refuses the rest with a 403 anyway)
  if (!can('manager')) {
    return (
      <Page title="Edit Warehouse">
        <div className="space-y-4 rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
          <RoleHint needed="manager">
            Only a Manager can change a warehouse's layout, dimensions, rows and racks.
          </RoleHint>
          <Link
            to={summary ? paths.warehouse(summary.name) : paths.dashboard}
            className={buttonClass('secondary')}
          >
            <ArrowLeft className="h-4 w-4" aria-hidden /> Back
          </Link>
        </div>
      </Page>
    );
  }

  if (warehouses.isPending || (summary && detail.isPending)) return <Spinner label="Loading warehouse..." />;
  if (warehouses.isError || detail.isError) {
    return (
      <Page title="Edit Warehouse">
        <ErrorList messages={errorMessages(warehouses.error ?? detail.error)} />
      </Page>
    );
  }
  if (!summary || !detail.data) {
    return (
      <Page title="Edit Warehouse">
        <div className="rounded-xl border border-slate-200 bg-white p-8 text-center shadow-sm">
          <h2 className="text-xl font-bold text-primary">Warehouse Not Found</h2>
          <p className="mt-2 text-slate-600">The warehouse you are looking for does not exist.</p>
          <Link to={paths.dashboard} className={buttonClass('secondary', 'mt-6')}>
            Back to warehouses
          </Link>
        </div>
      </Page>
    );
  }

  const warehouse = detail.data;
  const hasFloor = warehouse.width > 0 && warehouse.length > 0;
  return (
    <Page
      title={warehouse.name}
      actions={
        <Link to={paths.warehouse(warehouse.name)} className={buttonClass('secondary')}>
          <ArrowLeft className="h-4 w-4" aria-hidden /> Back to warehouse
        </Link>
      }
    >
      <div className="space-y-6">
        <Panel
          className="space-y-4"
          title="Edit Warehouse Fields"
          hint="Vaults per field and the floor size in feet."
        >
          <DimensionsForm key={`${warehouse.id}-${warehouse.version}`} warehouse={warehouse} />
        </Panel>
        <Panel
          className="space-y-4"
          title="Field Grid"
          hint="Add or remove columns on either side, or rows at the bottom. Fields holding vaults cannot be removed."
        >
          <GridEditor warehouse={warehouse} />
        </Panel>
        {hasFloor ? (
          <>
            <Panel
              className="space-y-4"
              title="Field Grid Placement"
              hint="Drag the VAULTS block to where the field grid stands on the floor. Each field is 5 x 5 ft."
            >
              <FieldGridPlacement warehouse={warehouse} />
            </Panel>
            <Panel
              className="space-y-4"
              title="Edit Warehouse Layout"
              hint="Drag the new rack onto the plan, drag racks to move them, click a rack for its info."
            >
              <RackLayoutEditor warehouse={warehouse} />
            </Panel>
          </>
        ) : (
          <p className="rounded-xl border border-dashed border-slate-300 bg-white p-6 text-center text-slate-500">
            Set the length and width above to place the field grid and racks on the floor.
          </p>
        )}
      </div>
    </Page>
  );
}
