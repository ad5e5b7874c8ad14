import { Download, FileArchive, RotateCcw } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { toast } from 'sonner';
import type { CompanyFileJobDto } from '@domain/schemas/company-file.schema';
import { companyFileDownloadUrl, useLatestCompanyFile, useStartCompanyFile } from '@/api/company-file';
import { Button, buttonClass } from '@/components/ui/button';
import { ErrorList } from '@/components/ui/error-list';
import { QueryView } from '@/components/ui/query-view';
import { ProgressBar } from '@/components/ui/progress-bar';
import { errorMessages } from '@/lib/api-client';
import { useFormat } from '@/lib/format';
import { Panel } from '@/components/ui/panel';

function size(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024))} KB`;
  if (bytes < 1024 * 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  return `${(bytes / 1024 / 1024 / 1024).toFixed(2)} GB`;
}

/** Starts the browser's download of a finished file, as a click on its link would. */
function downloadFile(job: CompanyFileJobDto) {
  const link = document.createElement('a');
  link.href = companyFileDownloadUrl(job);
  link.download = job.fileName;
  document.body.append(link);
  link.click();
  link.remove();
}

/**
 * The company file on the Backups page: a Manager starts it, the server makes it in the background (the page may be
 * left and come back), the page shows how far it is, says when it is ready and downloads it.
 */
export function CompanyFileSection() {
  const format = useFormat();
  const latest = useLatestCompanyFile();
  const start = useStartCompanyFile();
  const job = latest.data ?? null;
  // the job this page saw running: when it finishes here, say so and download it
  const watched = useRef<number | null>(null);

  useEffect(() => {
    if (!job) return;
    if (job.status === 'running') {
      watched.current = job.id;
      return;
    }
    if (watched.current !== job.id) return;
    watched.current = null;
    if (job.status === 'ready') {
      toast.success(`The company file is ready (${size(job.bytes)}); it is downloading.`);
      downloadFile(job);
    } else toast.error(job.error ?? 'The company file could not be made.');
  }, [job]);

  const running = job?.status === 'running';
  const percent = job && job.total > 0 ? (job.done / job.total) * 100 : 0;

  return (
    <Panel
      id="company-file-title"
      className="space-y-4"
      title={
        <>
          <FileArchive className="h-5 w-5" aria-hidden /> Company file
        </>
      }
      hint={
        <>
          One file with everything of your company: warehouses, vaults, pallets, checklists, history and every
          attachment. Keep it as a backup, or move the company to another installation with{' '}
          <code className="rounded bg-slate-100 px-1">npm run cli -- import</code>. It holds your team&apos;s
          sign-in data, so keep it somewhere safe.
        </>
      }
    >
      <QueryView query={latest}>
        {() => (
          <>
            {running && job && (
              <div className="space-y-1" aria-live="polite">
                <ProgressBar label="Making the company file" percent={percent} />
                <p className="text-sm text-slate-600">
                  {format.number(job.done)} of {format.number(job.total)} rows and attachments written. You
                  can leave this page; the file keeps being made on the server.
                </p>
              </div>
            )}
            {job?.status === 'ready' && (
              <div className="flex flex-wrap items-center gap-3 rounded-lg bg-slate-50 p-3 text-sm text-slate-700">
                <span>
                  <strong className="font-semibold">{job.fileName}</strong> ({size(job.bytes)}), made{' '}
                  {format.dateTime(job.createdAt)}
                  {job.requestedBy ? ` for ${job.requestedBy}` : ''}.
                </span>
                <a
                  href={companyFileDownloadUrl(job)}
                  download={job.fileName}
                  className={buttonClass('secondary')}
                >
                  <Download className="h-4 w-4" aria-hidden /> Download again
                </a>
              </div>
            )}
            {job?.status === 'failed' && (
              <ErrorList messages={[job.error ?? 'The company file could not be made.']} />
            )}
            {!job && (
              <p className="text-sm text-slate-600">
                No company file has been made yet. It takes from seconds to several minutes, by the size of
                the company.
              </p>
            )}
            {start.isError && <ErrorList messages={errorMessages(start.error)} />}
            <Button
              onClick={() => start.mutate(undefined)}
              disabled={running || start.isPending}
              aria-describedby="company-file-title"
            >
              {running || start.isPending ? (
                'Making the company file...'
              ) : job?.status === 'failed' ? (
                <>
                  <RotateCcw className="h-4 w-4" aria-hidden /> Try again
                </>
              ) : job?.status === 'ready' ? (
                <>
                  <FileArchive className="h-4 w-4" aria-hidden /> Make a new company file
                </>
              ) : (
                <>
                  <Download className="h-4 w-4" aria-hidden /> Download company file
                </>
              )}
            </Button>
          </>
        )}
      </QueryView>
    </Panel>
  );
}
