import { useVaultHistory } from '@/api/activity';
import { LoadFailed } from '@/components/ui/error-list';
import { Spinner } from '@/components/ui/spinner';
import { errorMessages } from '@/lib/api-client';
import { ActivityEntry } from './activity-entry';

/** The vault's history on its edit page: every change, newest first, with who and where before and after. */
export function VaultTimeline({ vaultId, version }: { vaultId: number; version: number }) {
  // the vault's version moves with every change, so the timeline reloads with the vault
  const history = useVaultHistory(vaultId, version);
  return (
    <section aria-label="History" className="mt-6 rounded-xl border border-slate-200 bg-white shadow-sm">
      <h2 className="px-5 pt-5 text-sm font-semibold tracking-wide text-slate-500 uppercase">History</h2>
      {history.isPending && <Spinner label="Loading history..." />}
      {history.isError && (
        <LoadFailed messages={errorMessages(history.error)} onRetry={() => void history.refetch()} />
      )}
      {history.isSuccess && (
        <ol className="mt-2">
          {history.data.map((item) => (
            <ActivityEntry key={item.id} item={item} showSubject={false} />
          ))}
        </ol>
      )}
    </section>
  );
}
