import { AlertTriangle, Archive, CheckCircle2, DatabaseBackup, Info } from 'lucide-react';
import { toast } from 'sonner';
import type { BackupFileDto, BackupsDto } from '@domain/schemas/backup.schema';
import { useBackUpNow, useBackups } from '@/api/backups';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { QueryFailed } from '@/components/ui/error-list';
import { Spinner } from '@/components/ui/spinner';
import { ApiError, errorMessages } from '@/lib/api-client';
import { useFormat } from '@/lib/format';

const DAY_MS = 24 * 3600_000;

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}

/** "today", "yesterday", "3 days ago" */
function age(iso: string, now = Date.now()): string {
  const days = Math.floor((now - Date.parse(iso)) / DAY_MS);
  if (days <= 0) return 'today';
  return days === 1 ? 'yesterday' : `${days} days ago`;
}

function Frame({ children }: { children: React.ReactNode }) {
  return (
    <section aria-labelledby="automatic-backups" className="rounded-xl bg-white p-5 shadow-sm sm:p-6">
      <h2 id="automatic-backups" className="flex items-center gap-2 text-lg font-semibold text-primary">
        <DatabaseBackup className="h-5 w-5" aria-hidden /> Automatic backups
      </h2>
      <div className="mt-4">{children}</div>
    </section>
  );
}

function Note({ children }: { children: React.ReactNode }) {
  return (
    <p className="flex items-start gap-2 rounded-lg bg-slate-50 p-4 text-sm text-slate-600">
      <Info className="mt-0.5 h-4 w-4 shrink-0 text-slate-400" aria-hidden />
      <span>{children}</span>
    </p>
  );
}

type Automatic = Extract<BackupsDto, { automatic: true }>;

function OverdueWarning({ status }: { status: Automatic }) {
  const format = useFormat();
  const failedSince =
    status.lastFailure &&
    (!status.lastGood || Date.parse(status.lastFailure.at) > Date.parse(status.lastGood.takenAt))
      ? status.lastFailure
      : null;
  return (
    <div
      role="alert"
      className="mb-5 flex gap-3 rounded-lg border border-amber-300 bg-amber-50 p-4 text-amber-900"
    >
      <AlertTriangle className="mt-0.5 h-5 w-5 shrink-0 text-amber-600" aria-hidden />
      <div className="text-sm">
        <p className="font-semibold">
          {status.lastGood
            ? `The last good backup was taken ${age(status.lastGood.takenAt)}: more than two days ago.`
            : 'No good backup exists yet.'}
        </p>
        <p className="mt-1">
          {failedSince
            ? `The last attempt failed on ${format.dateTime(failedSince.at)}: ${failedSince.message}`
            : 'Take one now, and check that the server runs at the scheduled time and its disk has room.'}
        </p>
      </div>
    </div>
  );
}

function BackupList({ kept, lastGood }: { kept: BackupFileDto[]; lastGood: BackupFileDto | null }) {
  const format = useFormat();
  if (kept.length === 0) {
    return (
      <EmptyState icon={Archive} title="No backups kept yet">
        The first one is taken at the next scheduled run, or now with Back up now.
      </EmptyState>
    );
  }
  return (
    <ul aria-label="Kept backups" className="divide-y divide-slate-100 rounded-lg border border-slate-200">
      {kept.map((backup) => (
        <li
          key={backup.file}
          className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 px-4 py-3"
        >
          <span className="min-w-0 break-all font-mono text-sm text-slate-700">{backup.file}</span>
          <span className="flex items-baseline gap-3 text-sm text-slate-500">
            {backup.file === lastGood?.file && (
              <span className="rounded-full bg-emerald-50 px-2 py-0.5 text-xs font-semibold text-emerald-700">
                Latest
              </span>
            )}
            <time dateTime={backup.takenAt}>{format.dateTime(backup.takenAt)}</time>
            <span>{formatBytes(backup.bytes)}</span>
          </span>
        </li>
      ))}
    </ul>
  );
}

function Summary({ status }: { status: Automatic }) {
  const format = useFormat();
  const backUpNow = useBackUpNow();
  const busy = status.running || backUpNow.isPending;
  const run = () =>
    backUpNow.mutate(undefined, {
      onSuccess: (outcome) => {
        if (outcome.ok) {
          toast.success(`Backup taken and checked: ${formatBytes(outcome.backup.bytes)}.`);
        } else toast.error(`The backup failed: ${outcome.message}`);
      },
      onError: (error) => toast.error(errorMessages(error).join(' ')),
    });
  return (
    <>
      {status.overdue && <OverdueWarning status={status} />}
      <dl className="grid gap-4 sm:grid-cols-3">
        <div>
          <dt className="text-xs font-semibold uppercase tracking-wide text-slate-500">Last good backup</dt>
          <dd className="mt-1 text-slate-800">
            {status.lastGood ? (
              <>
                <span className="flex items-center gap-1.5 font-semibold">
                  {!status.overdue && <CheckCircle2 className="h-4 w-4 text-emerald-600" aria-hidden />}
                  {format.dateTime(status.lastGood.takenAt)}
                </span>
                <span className="text-sm text-slate-500">
                  {age(status.lastGood.takenAt)}, {formatBytes(status.lastGood.bytes)}
                </span>
              </>
            ) : (
              'None yet'
            )}
          </dd>
        </div>
        <div>
          <dt className="text-xs font-semibold uppercase tracking-wide text-slate-500">Next run</dt>
          <dd className="mt-1 text-slate-800">
            {status.nextRun ? format.dateTime(status.nextRun) : 'Not scheduled'}
            <span className="block text-sm text-slate-500">
              Schedule <code className="font-mono">{status.schedule}</code> (server time)
            </span>
          </dd>
        </div>
        <div>
          <dt className="text-xs font-semibold uppercase tracking-wide text-slate-500">Kept</dt>
          <dd className="mt-1 text-slate-800">
            The newest of each of the last {status.keepDaily} days and {status.keepWeekly} weeks
            <span className="block break-all text-sm text-slate-500">in {status.folder}</span>
          </dd>
        </div>
      </dl>
      <div className="mt-5 flex flex-wrap items-center gap-3">
        <Button onClick={run} disabled={busy} aria-busy={busy}>
          <DatabaseBackup className="h-4 w-4" aria-hidden />
          {busy ? 'Backing up...' : 'Back up now'}
        </Button>
        {busy && (
          <span role="status" className="text-sm text-slate-500">
            Copying and checking the database; the app keeps working meanwhile.
          </span>
        )}
      </div>
      <h3 className="mt-6 mb-2 text-sm font-semibold text-slate-700">Kept backups ({status.kept.length})</h3>
      <BackupList kept={status.kept} lastGood={status.lastGood} />
      <p className="mt-4 text-sm text-slate-500">
        To restore one, stop the server and run{' '}
        <code className="rounded bg-slate-100 px-1 font-mono text-slate-700">
          npm run cli -- restore --from {status.folder}/{status.lastGood?.file ?? 'backup-....db'}
        </code>
        . The replaced database is kept aside.
      </p>
    </>
  );
}

/** The installation's automatic SQLite backups: the last good one, the kept ones, the next run and Back up now. */
export function AutomaticBackupsSection() {
  const backups = useBackups();
  return (
    <Frame>
      {backups.isPending ? (
        <Spinner label="Loading backups..." />
      ) : backups.error instanceof ApiError && backups.error.status === 404 ? (
        <Note>Automatic backups are kept by the operator of this installation.</Note>
      ) : backups.isError ? (
        <QueryFailed query={backups} />
      ) : !backups.data.automatic ? (
        <Note>{backups.data.reason}</Note>
      ) : (
        <Summary status={backups.data} />
      )}
    </Frame>
  );
}
