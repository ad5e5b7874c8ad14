import { ClipboardCheck } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useSession } from '@/api/session';
import { paths } from '@/config/paths';

/**
 * Checklist pages open signed out too, where there is no app chrome: then they get a slim bar of their own.
 * Signed in, the app's top bar is already there.
 */
export function ChecklistFrame({ children }: { children: ReactNode }) {
  const session = useSession();
  if (session.data) return <>{children}</>;
  return (
    <div className="min-h-screen bg-surface">
      <header className="bg-primary text-white shadow">
        <div className="mx-auto flex h-14 max-w-7xl items-center justify-between gap-3 px-4 sm:px-6 lg:px-8">
          <Link
            to={paths.landing}
            className="flex min-h-11 items-center gap-2 rounded-lg font-bold focus-visible:outline-2 focus-visible:outline-white"
          >
            <ClipboardCheck className="h-6 w-6" aria-hidden /> Warehouse Manager
          </Link>
          <Link
            to={paths.login}
            className="inline-flex min-h-11 items-center rounded-lg px-3 text-sm font-semibold hover:bg-white/10 focus-visible:outline-2 focus-visible:outline-white"
          >
            Log In
          </Link>
        </div>
      </header>
      <main>{children}</main>
    </div>
  );
}
