import type { ReactNode } from 'react';

/** The frame of a signed-in page: a title, optional actions, and the content. */
export function Page({
  title,
  actions,
  children,
}: {
  title: ReactNode;
  actions?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <div className="mx-auto w-full max-w-7xl px-4 py-6 sm:px-6 lg:px-8">
      <div className="mb-6 flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold text-primary">{title}</h1>
        {actions}
      </div>
      {children}
    </div>
  );
}
