import { ArrowLeft, FileDown } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { inventoryPdfUrl, useInventory } from '@/api/inventory';
import { useRole } from '@/api/session';
import { Button } from '@/components/ui/button';
import { ErrorList, QueryFailed } from '@/components/ui/error-list';
import { Page } from '@/components/ui/page';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { downloadFile, errorMessages } from '@/lib/api-client';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useIdParam } from '@/lib/use-id-param';
import { CodesSettings } from '../components/codes-settings';
import { ItemForm } from '../components/item-form';
import { ItemList } from '../components/item-list';
import { PhotoSection } from '../components/photo-section';
import { SignaturesSection } from '../components/signatures-section';

/** `/inventory/{unit id}`: a unit's condition inventory, taken on a tablet at receiving and ticked off at delivery. */
export default function InventoryPage() {
  const vaultId = useIdParam();
  if (vaultId === null)
    return (
      <Page title="Inventory">
        <ErrorList messages={['Unit not found']} />
      </Page>
    );
  return <UnitInventory vaultId={vaultId} />;
}

function UnitInventory({ vaultId }: { vaultId: number }) {
  const inventory = useInventory(vaultId);
  const { can } = useRole();
  const [downloading, setDownloading] = useState(false);
  const unit = inventory.data?.vault;
  useDocumentTitle(unit ? `Inventory of ${unit.number ?? 'unit'}` : 'Inventory');
  if (inventory.isPending) return <Spinner label="Loading the inventory..." />;
  if (inventory.isError)
    return (
      <Page title="Inventory">
        <QueryFailed query={inventory} />
      </Page>
    );
  const data = inventory.data;
  const canWrite = can('floor');

  const download = async () => {
    setDownloading(true);
    try {
      await downloadFile(
        inventoryPdfUrl(vaultId, Intl.DateTimeFormat().resolvedOptions().timeZone),
        `inventory-${data.vault.number ?? data.vault.id}.pdf`,
      );
      toast.success('Inventory PDF downloaded');
    } catch (error) {
      toast.error(errorMessages(error).join(' '));
    } finally {
      setDownloading(false);
    }
  };

  return (
    <Page
      title={`Inventory of unit ${data.vault.number ?? 'without number'}`}
      actions={
        <Button
          variant="secondary"
          onClick={() => void download()}
          disabled={downloading || data.items.length === 0}
        >
          <FileDown className="h-4 w-4" aria-hidden /> {downloading ? 'Preparing...' : 'Download PDF'}
        </Button>
      }
    >
      <div className="-mt-3 mb-4 flex flex-wrap items-center gap-x-4 gap-y-1 text-sm text-slate-600">
        {data.vault.number && (
          <Link
            to={paths.editVault(data.vault.number)}
            className="inline-flex items-center gap-1.5 rounded-lg py-1 pr-2 font-medium text-slate-600 hover:text-accent focus-visible:outline-2 focus-visible:outline-accent pointer-coarse:min-h-11"
          >
            <ArrowLeft className="h-4 w-4" aria-hidden /> Unit {data.vault.number}
          </Link>
        )}
        <span>Customer {data.vault.customer}</span>
        {data.vault.order && <span>Order {data.vault.order}</span>}
      </div>
      {data.pickup && (
        <p className="mb-4 rounded-lg bg-sky-50 px-3 py-2 text-sm text-sky-900">
          The customer signed this list at pickup: items can no longer change; at delivery tick each item off.
        </p>
      )}
      <div className="space-y-6">
        <ItemList inventory={data} canWrite={canWrite} />
        {canWrite && !data.pickup && <ItemForm inventory={data} />}
        <PhotoSection inventory={data} canWrite={canWrite} />
        <SignaturesSection inventory={data} canWrite={canWrite} />
        {can('manager') && <CodesSettings />}
      </div>
    </Page>
  );
}
