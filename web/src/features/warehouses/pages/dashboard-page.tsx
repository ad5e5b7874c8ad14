import { Plus, Warehouse } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import type { WarehouseSummaryDto } from '../../../../../domain/schemas/warehouse.schema';
import { useSession } from '../../../api/session';
import { useDeleteWarehouse, useWarehouses } from '../../../api/warehouses';
import { Button, buttonClass } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { ErrorList } from '../../../components/ui/error-list';
import { Page } from '../../../components/ui/page';
import { Spinner } from '../../../components/ui/spinner';
import { paths } from '../../../config/paths';
import { errorMessages } from '../../../lib/api-client';
import { WarehouseCard } from '../components/warehouse-card';

export default function DashboardPage() {
  const session = useSession();
  const warehouses = useWarehouses(session.data?.companyId);
  const deleteWarehouse = useDeleteWarehouse();
  const [toDelete, setToDelete] = useState<WarehouseSummaryDto | null>(null);

  function confirmDelete() {
    if (!toDelete) return;
    deleteWarehouse.mutate(toDelete.id, {
      onSuccess: () => setToDelete(null),
      onError: (error) => {
        console.error('Failed to delete warehouse:', error);
        toast.error(errorMessages(error).join(' '));
      },
    });
  }

  const list = [...(warehouses.data ?? [])].sort((a, b) => a.name.localeCompare(b.name));

  return (
    <Page title="Warehouses">
      {warehouses.isPending && <Spinner label="Loading warehouses..." />}
      {warehouses.isError && (
        <div className="space-y-3">
          <ErrorList messages={errorMessages(warehouses.error)} />
          <Button variant="secondary" onClick={() => void warehouses.refetch()}>
            Try again
          </Button>
        </div>
      )}
      {warehouses.isSuccess && list.length === 0 && (
        <div className="flex flex-col items-center rounded-xl border border-dashed border-slate-300 bg-white px-6 py-12 text-center">
          <Warehouse className="h-10 w-10 text-slate-300" aria-hidden />
          <p className="mt-3 text-lg font-semibold text-slate-700">No warehouses yet</p>
          <p className="mt-1 text-sm text-slate-500">Add your first warehouse to start placing vaults.</p>
        </div>
      )}
      {list.length > 0 && (
        <ul className="grid grid-cols-1 gap-4 md:grid-cols-2 lg:grid-cols-3">
          {list.map((warehouse) => (
            <li key={warehouse.id}>
              <WarehouseCard warehouse={warehouse} onDelete={() => setToDelete(warehouse)} />
            </li>
          ))}
        </ul>
      )}
      {!warehouses.isPending && (
        <div className="mt-6 flex justify-center">
          <Link to={paths.addWarehouse} className={buttonClass('primary')}>
            <Plus className="h-4 w-4" aria-hidden /> Add Warehouse
          </Link>
        </div>
      )}
      <ConfirmDialog
        open={toDelete !== null}
        onOpenChange={(open) => {
          if (!open && !deleteWarehouse.isPending) setToDelete(null);
        }}
        title="Delete Warehouse"
        message={`Are you sure you want to delete ${toDelete?.name ?? ''}? All of its data will be permanently removed. This action cannot be undone.`}
        confirmLabel="Delete"
        onConfirm={confirmDelete}
        pending={deleteWarehouse.isPending}
        danger
      />
    </Page>
  );
}
