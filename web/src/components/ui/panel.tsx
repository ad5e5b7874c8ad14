import { type ReactNode, useId } from 'react';

/**
 * A white card that is a named part of its page: `title` is its heading (and the region's name), `hint` a line under
 * it, `actions` the buttons beside it; `id` names the heading where something else points at it.
 */
export function Panel({
  title,
  hint,
  actions,
  id,
  className = 'space-y-3',
  children,
}: {
  title: ReactNode;
  hint?: ReactNode;
  actions?: ReactNode;
  id?: string;
  className?: string;
  children: ReactNode;
}) {
  const ownId = useId();
  const headingId = id ?? ownId;
  return (
    <section
      aria-labelledby={headingId}
      className={`rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5 ${className}`}
    >
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="space-y-1">
          <h2 id={headingId} className="flex items-center gap-2 text-lg font-bold text-primary">
            {title}
          </h2>
          {hint && <div className="max-w-3xl text-sm text-slate-600">{hint}</div>}
        </div>
        {actions}
      </div>
      {children}
    </section>
  );
}
