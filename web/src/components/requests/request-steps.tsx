import { Check, Circle, X } from 'lucide-react';
import { REQUEST_STATE_LABELS, type RequestKind, type RequestState } from '@domain/schemas/request.schema';

const TONE: Record<RequestState, string> = {
  requested: 'bg-amber-100 text-amber-900',
  scheduled: 'bg-blue-100 text-blue-900',
  pulling: 'bg-indigo-100 text-indigo-900',
  loaded: 'bg-violet-100 text-violet-900',
  delivered: 'bg-green-100 text-green-900',
  cancelled: 'bg-slate-200 text-slate-700',
};

/** A request's state as a coloured label (its words carry the meaning, the colour only helps). */
export function RequestStateBadge({ state, kind }: { state: RequestState; kind?: RequestKind }) {
  const label = state === 'delivered' && kind === 'access' ? 'Done' : REQUEST_STATE_LABELS[state];
  return (
    <span
      className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-sm font-semibold ${TONE[state]}`}
      data-testid="request-state"
    >
      {label}
    </span>
  );
}

/** The path of a request with the date of each step it went through; the steps ahead are shown faint. */
export function RequestSteps({
  kind,
  state,
  steps,
  formatDate,
}: {
  kind: RequestKind;
  state: RequestState;
  steps: { state: RequestState; at: string; by?: string | null }[];
  formatDate: (iso: string) => string;
}) {
  const path: RequestState[] =
    state === 'cancelled'
      ? steps.map((s) => s.state)
      : kind === 'access'
        ? ['requested', 'scheduled', 'pulling', 'delivered']
        : ['requested', 'scheduled', 'pulling', 'loaded', 'delivered'];
  return (
    <ol className="space-y-2" aria-label="Steps">
      {path.map((step) => {
        const done = steps.find((s) => s.state === step);
        const label = step === 'delivered' && kind === 'access' ? 'Done' : REQUEST_STATE_LABELS[step];
        return (
          <li key={step} className="flex items-start gap-3" data-testid="request-step">
            {step === 'cancelled' ? (
              <X className="mt-0.5 h-5 w-5 shrink-0 text-slate-600" aria-hidden />
            ) : done ? (
              <Check className="mt-0.5 h-5 w-5 shrink-0 text-green-700" aria-hidden />
            ) : (
              <Circle className="mt-0.5 h-5 w-5 shrink-0 text-slate-300" aria-hidden />
            )}
            <div className={done ? 'text-slate-900' : 'text-slate-500'}>
              <span className="font-semibold">{label}</span>
              {done ? (
                <span className="text-sm text-slate-600">
                  {' '}
                  · {formatDate(done.at)}
                  {done.by ? ` · ${done.by}` : ''}
                </span>
              ) : (
                <span className="sr-only"> (not yet)</span>
              )}
            </div>
          </li>
        );
      })}
    </ol>
  );
}
