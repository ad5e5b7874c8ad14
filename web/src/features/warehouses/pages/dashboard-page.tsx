import { Plus, Warehouse } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import type { WarehouseSummaryDto } from '@domain/schemas/warehouse.schema';
import { useSession } from '@/api/session';
import { useRole } from '@/api/session';
import { useDeleteWarehouse, useWarehouses } from '@/api/warehouses';
import { RoleHint } from '@/components/ui/role-hint';
import { buttonClass } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Page } from '@/components/ui/page';
import { paths } from '@/config/paths';
import { errorMessages } from '@/lib/api-client';
import { BillingOverviewCard } from '@/components/billing/billing-overview-card';
import { WarehouseCard } from '../components/warehouse-card';
import { EmptyState } from '@/components/ui/empty-state';
import { QueryView } from '@/components/ui/query-view';
import { useDocumentTitle } from '@/lib/use-document-title';

export default function DashboardPage() {
  useDocumentTitle('Warehouses');
  const session = useSession();
  const warehouses = useWarehouses(session.data?.companyId);
  const deleteWarehouse = useDeleteWarehouse();
  const { can } = useRole();
  const [toDelete, setToDelete] = useState<WarehouseSummaryDto | null>(null);

  function confirmDelete() {
    if (!toDelete) return;
    const { name } = toDelete;
    deleteWarehouse.mutateAsync(toDelete.id).then(
      () => {
        toast.success(`${name} deleted.`);
        setToDelete(null);
      },
      (error: unknown) => {
        console.error('Failed to delete warehouse:', error);
        toast.error(errorMessages(error).join(' '));
      },
    );
  }

  return (
    <Page title="Warehouses">
      {/* amounts are for the Office role and Managers only (issue 28) */}
      {can('office') && <BillingOverviewCard />}
      <QueryView
        query={warehouses}
        loading="Loading warehouses..."
        empty={
          <EmptyState icon={Warehouse} title="No warehouses yet">
            Add your first warehouse to start placing vaults.
          </EmptyState>
        }
      >
        {(all) => (
          <ul className="grid grid-cols-1 gap-4 md:grid-cols-2 lg:grid-cols-3">
            {all.map((warehouse) => (
              <li key={warehouse.id}>
                <WarehouseCard
                  warehouse={warehouse}
                  onDelete={() => setToDelete(warehouse)}
                  canManage={can('manager')}
                />
              </li>
            ))}
          </ul>
        )}
      </QueryView>
      {!warehouses.isPending && (
        <div className="mt-6 flex justify-center">
          {can('manager') ? (
            <Link to={paths.addWarehouse} className={buttonClass('primary')}>
              <Plus className="h-4 w-4" aria-hidden /> Add Warehouse
            </Link>
          ) : (
            <RoleHint needed="manager">Only a Manager can add, change or delete warehouses.</RoleHint>
          )}
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
