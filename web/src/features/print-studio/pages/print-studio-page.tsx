import { Download, FileX, Printer, QrCode } from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';
import { flushSync } from 'react-dom';
import { useSearchParams } from 'react-router';
import { toast } from 'sonner';
import type { PrintVaultDto } from '@domain/rules/print-order';
import { usePrintVaults, useVaultOrders } from '@/api/print';
import { useSession } from '@/api/session';
import { useWarehouses } from '@/api/warehouses';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { EmptyState } from '@/components/ui/empty-state';
import { QueryFailed } from '@/components/ui/error-list';
import { Page } from '@/components/ui/page';
import { Spinner } from '@/components/ui/spinner';
import { errorMessages } from '@/lib/api-client';
import { PrintFiltersBar } from '../components/print-filters-bar';
import { LabelsDialog } from '../components/labels-dialog';
import { VaultPrintCards } from '../components/vault-print-cards';
import { VaultPrintTable } from '../components/vault-print-table';
import { downloadVaultsCsv } from '../download-csv';
import { downloadVaultsXlsx } from '../download-xlsx';
import {
  filterChoices,
  filtersFromParams,
  filtersToParams,
  filterVaults,
  groupByPlacement,
  hasFilters,
  type PrintFilters,
} from '../print-filters';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useFormat } from '@/lib/format';
import { naturalCompare } from '@domain/rules/text';

type PrintStatus = 'idle' | 'loading' | 'succeeded' | 'failed';

const plural = (n: number) => `${n} ${n === 1 ? 'vault' : 'vaults'}`;

/** The filters in words, for the paper copy. */
function filtersInWords(filters: PrintFilters): string {
  const parts: string[] = [];
  if (filters.warehouse) parts.push(`warehouse ${filters.warehouse}`);
  if (filters.customer.trim()) parts.push(`customer "${filters.customer.trim()}"`);
  if (filters.order.trim()) parts.push(`order "${filters.order.trim()}"`);
  if (filters.type) parts.push(`type ${filters.type}`);
  if (filters.placement !== 'all') parts.push(`${filters.placement} only`);
  return parts.join(', ');
}

function VaultSection({
  id,
  title,
  hint,
  vaults,
  printAll,
  onShowNote,
}: {
  id: string;
  title: string;
  hint?: string;
  vaults: PrintVaultDto[];
  printAll: boolean;
  onShowNote: (vault: PrintVaultDto) => void;
}) {
  if (vaults.length === 0) return null;
  return (
    <section aria-labelledby={id} className="mb-8 print:mb-4">
      <h2 id={id} className="mb-2 text-lg font-semibold text-slate-800 print:text-[12pt]">
        {title} <span className="font-normal text-slate-600">({vaults.length})</span>
      </h2>
      {hint && <p className="mb-2 text-sm text-slate-600 print:hidden">{hint}</p>}
      <div className="hidden rounded-xl border border-slate-200 bg-white shadow-sm sm:block print:block print:rounded-none print:border-0 print:shadow-none">
        <VaultPrintTable vaults={vaults} printAll={printAll} onShowNote={onShowNote} label={title} />
      </div>
      <VaultPrintCards
        vaults={vaults}
        onShowNote={onShowNote}
        label={title}
        className="sm:hidden print:hidden"
      />
    </section>
  );
}

export default function PrintStudioPage() {
  useDocumentTitle('Print Studio');
  const vaults = usePrintVaults();
  const [params, setParams] = useSearchParams();
  const filters = filtersFromParams(params);
  const orders = useVaultOrders(filters.order.trim() !== '');
  const [printAll, setPrintAll] = useState(false);
  const [noteOf, setNoteOf] = useState<PrintVaultDto | null>(null);
  const [labelsOpen, setLabelsOpen] = useState(false);
  const session = useSession();
  const warehouses = useWarehouses(session.data?.companyId);
  const status: PrintStatus = vaults.isError
    ? 'failed'
    : vaults.isSuccess
      ? 'succeeded'
      : vaults.isFetching
        ? 'loading'
        : 'idle';

  // the browser's own Print (menu or Ctrl+P) gets every row, not only the ones on screen
  useEffect(() => {
    const before = () => flushSync(() => setPrintAll(true));
    const after = () => setPrintAll(false);
    window.addEventListener('beforeprint', before);
    window.addEventListener('afterprint', after);
    return () => {
      window.removeEventListener('beforeprint', before);
      window.removeEventListener('afterprint', after);
    };
  }, []);

  const format = useFormat();
  const list = useMemo(() => vaults.data ?? [], [vaults.data]);
  const choices = useMemo(() => filterChoices(list), [list]);
  const customers = useMemo(
    () => [...new Set(list.map((v) => v.customer_name))].sort(naturalCompare),
    [list],
  );
  // a plain pass over the list: the page renders on data and filter changes only (scrolling stays in the tables)
  const { placed, staged } = groupByPlacement(filterVaults(list, filters, (id) => orders.orderOf.get(id)));
  const shown = placed.length + staged.length;
  const filtered = hasFilters(filters);
  const setFilters = (next: PrintFilters) => setParams(filtersToParams(next), { replace: true });

  const actions = (
    <div className="no-print flex flex-wrap gap-2">
      <Button variant="secondary" onClick={() => window.print()} disabled={shown === 0}>
        <Printer className="h-4 w-4" aria-hidden /> Print
      </Button>
      <Button onClick={() => downloadVaultsCsv([...placed, ...staged])} disabled={shown === 0}>
        <Download className="h-4 w-4" aria-hidden /> Download CSV
      </Button>
      <Button
        variant="secondary"
        onClick={() =>
          void downloadVaultsXlsx([...placed, ...staged]).catch((error: unknown) =>
            toast.error(errorMessages(error).join(' ')),
          )
        }
        disabled={shown === 0}
      >
        <Download className="h-4 w-4" aria-hidden /> Download XLSX
      </Button>
      <Button variant="secondary" onClick={() => setLabelsOpen(true)}>
        <QrCode className="h-4 w-4" aria-hidden /> Labels
      </Button>
      {labelsOpen && (
        <LabelsDialog
          open={labelsOpen}
          onOpenChange={setLabelsOpen}
          vaultIds={[...placed, ...staged].map((v) => v.id)}
          warehouses={warehouses.data ?? []}
          shownWarehouse={filters.warehouse}
        />
      )}
    </div>
  );

  return (
    <div data-print-status={status}>
      <Page title="Print Studio" actions={actions}>
        {status === 'loading' || status === 'idle' ? (
          <Spinner label="Loading vaults..." />
        ) : status === 'failed' ? (
          <QueryFailed query={vaults} />
        ) : list.length === 0 ? (
          <EmptyState icon={FileX} title="No vaults found" />
        ) : (
          <>
            <PrintFiltersBar
              filters={filters}
              onChange={setFilters}
              warehouses={choices.warehouses}
              types={choices.types}
              customers={customers}
              orderPending={orders.pending}
            />
            <p className="mb-3 text-sm text-slate-600" role="status">
              <span className="print:hidden">
                {filtered ? `${shown} of ${plural(list.length)} match` : plural(list.length)}, sorted by
                warehouse, field and position.
                {orders.pending && ' Looking up order numbers...'}
              </span>
              <span className="hidden print:inline">
                {plural(shown)}
                {filtered && ` (${filtersInWords(filters)})`} · printed {format.dateTime(new Date())}
              </span>
            </p>
            {shown === 0 ? (
              <EmptyState
                icon={FileX}
                title={orders.pending ? 'Looking up order numbers...' : 'No vaults match these filters'}
              />
            ) : (
              <>
                <VaultSection
                  id="placed-vaults"
                  title="Placed vaults"
                  vaults={placed}
                  printAll={printAll}
                  onShowNote={setNoteOf}
                />
                <VaultSection
                  id="staged-vaults"
                  title="Staged vaults"
                  hint="On the stage, not in any warehouse yet."
                  vaults={staged}
                  printAll={printAll}
                  onShowNote={setNoteOf}
                />
              </>
            )}
          </>
        )}
      </Page>
      <Dialog
        open={noteOf !== null}
        onOpenChange={(open) => !open && setNoteOf(null)}
        title={`Note of vault ${noteOf?.name ?? noteOf?.customer_name ?? ''}`}
      >
        <p className="text-sm break-words whitespace-pre-wrap text-slate-800">{noteOf?.note}</p>
      </Dialog>
    </div>
  );
}
