import { type ReactNode, useState } from 'react';
import { ArrowLeft, ClipboardList } from 'lucide-react';
import { Link, useParams, useSearchParams } from 'react-router';
import type { FieldDto, VaultDto, WarehouseDto } from '@domain/schemas/warehouse.schema';
import { useSession } from '@/api/session';
import { useWarehouseDetails, useWarehouses } from '@/api/warehouses';
import { buttonClass } from '@/components/ui/button';
import { ErrorList } from '@/components/ui/error-list';
import { Page } from '@/components/ui/page';
import { HoldBadge } from '@/components/billing/hold-badge';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { errorMessages } from '@/lib/api-client';
import { EditVaultForm } from '../components/edit-vault-form';
import { LabelPrintDialog, PrintLabelButton } from '@/components/label-print-dialog';
import { vaultTitle } from '@domain/rules/vault-title';
import { useDocumentTitle } from '@/lib/use-document-title';

interface Found {
  vault: VaultDto;
  field: FieldDto;
  warehouse: WarehouseDto;
}

function findVault(
  warehouses: (WarehouseDto | undefined)[],
  vaultId: number | undefined,
  vaultName: string,
): Found | undefined {
  for (const warehouse of warehouses) {
    if (!warehouse) continue;
    for (const field of Object.values(warehouse.fields)) {
      for (const vault of Object.values(field.vaults)) {
        if (vaultId !== undefined ? vault.id === vaultId : vault.name === vaultName)
          return { vault, field, warehouse };
      }
    }
  }
  return undefined;
}

function positiveInt(raw: string | null): number | undefined {
  const n = Number(raw);
  return Number.isInteger(n) && n > 0 ? n : undefined;
}

/** Found from the address alone (vault id and warehouse id, else the vault name in every warehouse), so a reload works. */
export default function EditVaultPage({
  timeline,
}: {
  /** the vault's history, composed in by the router (features do not import each other) */
  timeline?: (vaultId: number, version: number) => ReactNode;
}) {
  const { vaultName = '' } = useParams();
  const [params] = useSearchParams();
  const vaultId = positiveInt(params.get('id'));
  const warehouseId = positiveInt(params.get('warehouse'));
  const session = useSession();
  const warehouses = useWarehouses(warehouseId === undefined ? session.data?.companyId : undefined);
  const ids = warehouseId !== undefined ? [warehouseId] : (warehouses.data ?? []).map((w) => w.id);
  const details = useWarehouseDetails(ids);
  const [printing, setPrinting] = useState(false);
  const found = findVault(
    details.map((d) => d.data),
    vaultId,
    vaultName,
  );
  useDocumentTitle(`Edit Vault ${found?.vault.name ?? vaultName}`);

  if (!found) {
    const loading = (warehouseId === undefined && warehouses.isPending) || details.some((d) => d.isPending);
    if (loading) return <Spinner label="Loading vault..." />;
    const failed = details.find((d) => d.isError)?.error ?? (warehouses.isError ? warehouses.error : null);
    return (
      <Page title={`Edit Vault ${vaultName}`}>
        <div className="rounded-xl border border-slate-200 bg-white p-6 text-center shadow-sm">
          <p className="text-lg font-semibold text-slate-700">Vault could not be found</p>
          <p className="mt-1 text-sm text-slate-500">It may have been staged, moved or deleted.</p>
          {failed && (
            <div className="mt-3 text-left">
              <ErrorList messages={errorMessages(failed)} />
            </div>
          )}
          <Link
            to={paths.dashboard}
            className="mt-4 inline-block text-sm font-medium text-accent hover:underline"
          >
            Back to the warehouses
          </Link>
        </div>
      </Page>
    );
  }

  const { vault, field, warehouse } = found;
  return (
    <Page title={vault.name ? `Edit Vault ${vault.name}` : `Edit ${vaultTitle(vault, field.name)}`}>
      <div className="-mt-3 mb-4 flex flex-wrap items-center justify-between gap-2">
        <Link
          to={paths.warehouse(warehouse.name)}
          className="inline-flex items-center gap-1.5 rounded-lg py-1 pr-2 pointer-coarse:min-h-11 text-sm font-medium text-slate-600 hover:text-accent focus-visible:outline-2 focus-visible:outline-accent"
        >
          <ArrowLeft className="h-4 w-4" aria-hidden />
          Back to {warehouse.name}
        </Link>
        <HoldBadge vaultId={vault.id} />
        <Link to={paths.inventory(vault.id)} className={buttonClass('secondary')}>
          <ClipboardList className="h-4 w-4" aria-hidden /> Inventory
        </Link>
        <PrintLabelButton
          what={`vault ${vault.name ?? vault.customer_name}`}
          onClick={() => setPrinting(true)}
        />
      </div>
      {printing && (
        <LabelPrintDialog
          open={printing}
          onOpenChange={setPrinting}
          title={`Label of vault ${vault.name ?? vault.customer_name}`}
          fileName={`vault-${vault.name ?? vault.id}-label.pdf`}
          subject={{ vaultId: vault.id }}
        />
      )}
      <EditVaultForm key={vault.id} vault={vault} field={field} warehouse={warehouse} />
      {timeline?.(vault.id, vault.version)}
    </Page>
  );
}
