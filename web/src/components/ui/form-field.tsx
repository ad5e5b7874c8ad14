import type { ReactNode } from 'react';

/** The text input look of the app's forms, disabled and invalid states included; 16 px text on phones, where a
 * smaller one makes the browser zoom in on focus. */
export const inputClass =
  'w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-base text-slate-800 sm:text-sm focus:border-accent focus:ring-2 focus:ring-accent/30 focus:outline-none disabled:bg-slate-100 disabled:text-slate-500 aria-[invalid=true]:border-danger';

/** A labelled input with a hint or its error under it. */
export function FormField({
  label,
  hint,
  error,
  className = '',
  children,
}: {
  label: ReactNode;
  hint?: string;
  error?: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <label className={`block ${className}`}>
      <span className="mb-1 block text-sm font-medium text-slate-700">{label}</span>
      {children}
      {hint && <span className="mt-1 block text-xs text-slate-500">{hint}</span>}
      {error && <span className="mt-1 block text-sm text-danger">{error}</span>}
    </label>
  );
}
