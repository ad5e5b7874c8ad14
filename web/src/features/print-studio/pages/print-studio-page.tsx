import { Download, FileX, Printer } from 'lucide-react';
import { useEffect, useState } from 'react';
import { flushSync } from 'react-dom';
import { usePrintVaults } from '../../../api/print';
import { Button } from '../../../components/ui/button';
import { Page } from '../../../components/ui/page';
import { Spinner } from '../../../components/ui/spinner';
import { errorMessages } from '../../../lib/api-client';
import { VaultPrintTable } from '../components/vault-print-table';
import { downloadVaultsCsv } from '../download-csv';
import { EmptyState } from '../../../components/ui/empty-state';
import { LoadFailed } from '../../../components/ui/error-list';

type PrintStatus = 'idle' | 'loading' | 'succeeded' | 'failed';

const printedAt = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeStyle: 'short' });

export default function PrintStudioPage() {
  const vaults = usePrintVaults();
  const [printAll, setPrintAll] = useState(false);
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

  const list = vaults.data ?? [];
  const actions = (
    <div className="no-print flex flex-wrap gap-2">
      <Button variant="secondary" onClick={() => window.print()} disabled={list.length === 0}>
        <Printer className="h-4 w-4" aria-hidden /> Print
      </Button>
      <Button onClick={() => downloadVaultsCsv(list)} disabled={list.length === 0}>
        <Download className="h-4 w-4" aria-hidden /> Download CSV
      </Button>
    </div>
  );

  return (
    <div data-print-status={status}>
      <Page title="Print Studio" actions={actions}>
        {status === 'loading' || status === 'idle' ? (
          <Spinner label="Loading vaults..." />
        ) : status === 'failed' ? (
          <LoadFailed messages={errorMessages(vaults.error)} onRetry={() => void vaults.refetch()} />
        ) : list.length === 0 ? (
          <EmptyState icon={FileX} title="No vaults found" />
        ) : (
          <>
            <p className="mb-3 text-sm text-slate-600">
              <span className="print:hidden">
                {list.length} {list.length === 1 ? 'vault' : 'vaults'}, sorted by warehouse, field and
                position.
              </span>
              <span className="hidden print:inline">
                {list.length} {list.length === 1 ? 'vault' : 'vaults'} · printed{' '}
                {printedAt.format(new Date())}
              </span>
            </p>
            <div className="rounded-xl border border-slate-200 bg-white shadow-sm print:rounded-none print:border-0 print:shadow-none">
              <VaultPrintTable vaults={list} printAll={printAll} />
            </div>
          </>
        )}
      </Page>
    </div>
  );
}
