import { Copy, ExternalLink, KeyRound, Pencil, QrCode, Square, SquareCheck } from 'lucide-react';
import { copyText } from '@/lib/copy-text';
import { useId } from 'react';
import { Link } from 'react-router';
import type { ChecklistDto } from '@domain/schemas/checklist.schema';
import { checklistPosterUrl } from '@/api/labels';
import { useFormat } from '@/lib/format';

const smallButton =
  'inline-flex min-h-10 items-center gap-1.5 rounded-lg px-3 text-sm font-medium text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-accent disabled:opacity-50';

const copyLink = (url: string) =>
  copyText(url, {
    copied: 'Fill-in link copied.',
    failed: 'Could not copy the link. Select it and copy it by hand.',
  });

/** The full fill-in link with its secret key, to copy and hand to floor staff; a new key replaces it. */
function FillInLink({ checklist, onRenewKey }: { checklist: ChecklistDto; onRenewKey?: () => void }) {
  const inputId = useId();
  const path = checklist.fill_in_url;
  // the server names the whole link at the product's public address (PUBLIC_URL), as the poster prints it
  const url = path ? (checklist.fill_in_link ?? `${window.location.origin}${path}`) : null;
  return (
    <div className="border-t border-slate-100 px-5 py-3">
      <label
        htmlFor={inputId}
        className="mb-1 block text-xs font-semibold tracking-wide text-slate-500 uppercase"
      >
        Fill-in link
      </label>
      {url ? (
        <input
          id={inputId}
          readOnly
          value={url}
          onFocus={(e) => e.currentTarget.select()}
          className="w-full min-w-0 rounded-lg border border-slate-200 bg-slate-50 px-2.5 py-1.5 font-mono text-xs text-slate-700"
        />
      ) : (
        <p id={inputId} className="text-sm text-slate-500">
          {onRenewKey ? 'No link yet: issue one with New link.' : 'No link yet: a Manager can issue one.'}
        </p>
      )}
      <div className="mt-2 flex flex-wrap items-center gap-1">
        {url && path && (
          <>
            <button
              type="button"
              className={smallButton}
              onClick={() => void copyLink(url)}
              aria-label={`Copy ${checklist.warehouseName} fill-in link`}
            >
              <Copy className="h-4 w-4" aria-hidden /> Copy
            </button>
            <Link to={path} className={`${smallButton} text-accent!`}>
              <ExternalLink className="h-4 w-4" aria-hidden /> Open
            </Link>
            <a href={checklistPosterUrl(checklist.id, 'letter')} download className={smallButton}>
              <QrCode className="h-4 w-4" aria-hidden /> Poster
              <span className="sr-only"> for {checklist.warehouseName} (Letter)</span>
            </a>
            <a href={checklistPosterUrl(checklist.id, 'a4')} download className={smallButton}>
              A4<span className="sr-only"> poster for {checklist.warehouseName}</span>
            </a>
          </>
        )}
        {onRenewKey && (
          <button type="button" className={smallButton} onClick={onRenewKey}>
            <KeyRound className="h-4 w-4" aria-hidden /> New
            <span className="sr-only"> {checklist.warehouseName} fill-in</span> link
          </button>
        )}
      </div>
    </div>
  );
}

export function ChecklistCard({
  checklist,
  onEdit,
  onRenewKey,
}: {
  checklist: ChecklistDto;
  /** absent for a member who may not edit checklists */
  onEdit?: () => void;
  /** absent for a member who may not issue links */
  onRenewKey?: () => void;
}) {
  const format = useFormat();
  const done = checklist.tasks.filter((t) => t.completed).length;
  return (
    <article
      aria-label={`${checklist.warehouseName} checklist`}
      className="flex flex-col rounded-xl border border-slate-200 bg-white shadow-sm"
    >
      <header className="flex items-start justify-between gap-3 border-b border-slate-100 px-5 py-4">
        <div className="min-w-0">
          <p className="text-sm text-slate-500">
            <time dateTime={checklist.created_at}>{format.date(checklist.created_at)}</time>
          </p>
          <h2 className="text-lg font-semibold break-words text-primary">{checklist.warehouseName}</h2>
        </div>
        <span
          className={`shrink-0 rounded-full px-2.5 py-1 text-xs font-semibold ${checklist.is_active ? 'bg-emerald-50 text-emerald-700' : 'bg-slate-100 text-slate-500'}`}
        >
          {checklist.is_active ? 'Active' : 'Inactive'}
        </span>
      </header>

      <div className="flex-1 space-y-4 px-5 py-4">
        <p className="text-sm text-slate-600">
          <span className="font-medium text-slate-700">Filled out by:</span>{' '}
          {checklist.filled_out_by ?? 'Nobody yet'}
        </p>
        {checklist.tasks.length === 0 ? (
          <p className="text-sm text-slate-500">No tasks found for this checklist.</p>
        ) : (
          <div>
            <p className="mb-2 text-xs font-semibold tracking-wide text-slate-500 uppercase">
              Tasks · {done} of {checklist.tasks.length} done
            </p>
            <ul className="space-y-2">
              {checklist.tasks.map((task) => (
                <li key={task.id} className="flex items-start gap-3 text-sm">
                  <span
                    role="checkbox"
                    aria-checked={task.completed}
                    aria-readonly
                    aria-label={task.text}
                    className="mt-0.5 shrink-0"
                  >
                    {task.completed ? (
                      <SquareCheck className="h-4.5 w-4.5 text-success" aria-hidden />
                    ) : (
                      <Square className="h-4.5 w-4.5 text-slate-400" aria-hidden />
                    )}
                  </span>
                  <div className="min-w-0">
                    <p className={`wrap-anywhere ${task.completed ? 'text-slate-600' : 'text-slate-800'}`}>
                      {task.text}
                    </p>
                    {task.completed ? (
                      <p className="text-xs text-slate-600">
                        Completed by {task.completed_by || 'Unknown'}
                        {task.completed_at && ` · ${format.dateTime(task.completed_at)}`}
                      </p>
                    ) : task.reason ? (
                      <p className="text-xs text-amber-700">
                        Not done: {task.reason}
                        {task.completed_by && ` (${task.completed_by}`}
                        {task.completed_by && task.completed_at && `, ${format.dateTime(task.completed_at)}`}
                        {task.completed_by && ')'}
                      </p>
                    ) : null}
                  </div>
                </li>
              ))}
            </ul>
          </div>
        )}
        {checklist.description && (
          <p className="rounded-lg bg-slate-50 px-3 py-2 text-sm whitespace-pre-wrap wrap-anywhere text-slate-600">
            {checklist.description}
          </p>
        )}
      </div>

      <FillInLink checklist={checklist} onRenewKey={onRenewKey} />

      {onEdit && (
        <footer className="flex flex-wrap items-center justify-end gap-2 border-t border-slate-100 px-5 py-3">
          <button
            type="button"
            onClick={onEdit}
            aria-label={`Edit ${checklist.warehouseName} checklist`}
            className="inline-flex min-h-10 items-center gap-1.5 rounded-lg px-3 text-sm font-medium text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-accent"
          >
            <Pencil className="h-4 w-4" aria-hidden /> Edit
          </button>
        </footer>
      )}
    </article>
  );
}
