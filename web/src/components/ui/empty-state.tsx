import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';

/** A dashed panel for "nothing here yet": an icon, a title and an optional hint. */
export function EmptyState({
  icon: Icon,
  title,
  titleAs: Title = 'p',
  children,
}: {
  icon: LucideIcon;
  title: string;
  /** `h1` where the empty state is the whole page */
  titleAs?: 'p' | 'h1';
  children?: ReactNode;
}) {
  return (
    <div className="flex flex-col items-center rounded-xl border border-dashed border-slate-300 bg-white px-6 py-12 text-center">
      <Icon className="h-10 w-10 text-slate-300" aria-hidden />
      <Title className="mt-3 text-lg font-semibold text-slate-700">{title}</Title>
      {children && <p className="mt-1 max-w-md text-sm text-slate-500">{children}</p>}
    </div>
  );
}
