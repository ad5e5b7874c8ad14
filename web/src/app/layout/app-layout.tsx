import { useQueryClient } from '@tanstack/react-query';
import { Menu, Warehouse } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { toast } from 'sonner';
import { Link, Outlet, useLocation, useNavigate } from 'react-router';
import { useLogout, useRole, useSession } from '../../api/session';
import { useWarehouseBySlug } from '../../api/warehouses';
import { OutboxBadge } from '../../components/outbox-badge';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { Page } from '../../components/ui/page';
import { RoleHint } from '../../components/ui/role-hint';
import { type PageRole, pageRoleOf } from '../../config/page-roles';
import { paths, warehouseSlugInPath } from '../../config/paths';
import { floorOutbox, startFloorOutbox } from '../../lib/outbox/floor-outbox';
import { ScanButton } from '../../features/scan/components/scan-button';
import { CompanySearch } from '../../features/search/components/company-search';
import { SearchBox } from '../../features/search/components/search-box';
import { useLiveUpdates } from '../live-updates';
import { MenuDrawer } from './menu-drawer';
import { useTopBarHeight } from './use-top-bar-height';
import { formatCount } from '@/lib/format';
import { useDocumentTitle } from '@/lib/use-document-title';

/** A page of a higher role, opened by a member below it (a bookmark, a shared link): its title and why, nothing more. */
function NotYours({ page }: { page: PageRole }) {
  useDocumentTitle(page.title);
  return (
    <Page title={page.title}>
      <RoleHint needed={page.needed}>{page.why}</RoleHint>
    </Page>
  );
}

/** Signed-in chrome: top bar with logo, menu button, (on warehouse pages) the search box, Find and Scan. */
export function AppLayout() {
  const [menuOpen, setMenuOpen] = useState(false);
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const session = useSession();
  const { can } = useRole();
  const gate = pageRoleOf(pathname);
  const logout = useLogout();
  const queryClient = useQueryClient();
  const [askSignOut, setAskSignOut] = useState(false);
  const topBar = useRef<HTMLElement>(null);
  useTopBarHeight(topBar);
  // the changes still on this tablet, counted for the sign-out's question (it opens with a render)
  const waiting = floorOutbox.list().length;
  useLiveUpdates(Boolean(session.data));
  // the tablet's outbox (issue 30): replayed when the connection is back; what reached the server refreshes the screens
  useEffect(() => {
    startFloorOutbox((result) => {
      void queryClient.invalidateQueries();
      const synced = result.applied.length;
      if (synced > 0)
        toast.success(
          synced === 1
            ? 'A change made offline reached the server'
            : `${synced} changes made offline reached the server`,
        );
      const refused = result.refused.length;
      if (refused > 0)
        toast.error(
          refused === 1
            ? 'A change was refused by the server and needs attention'
            : `${refused} changes were refused by the server and need attention`,
        );
    });
  }, [queryClient]);
  const signOut = () =>
    logout.mutate(undefined, { onSettled: () => navigate(paths.landing, { replace: true }) });
  // on a warehouse page a scanned "B4" means that warehouse's field
  const { warehouses, summary: current } = useWarehouseBySlug(warehouseSlugInPath(pathname) ?? '');
  const currentWarehouseId = current?.id;
  const onWarehousePage = pathname.startsWith('/warehouse/');

  return (
    <div className="flex min-h-screen flex-col">
      <a
        href="#main"
        className="sr-only z-50 rounded-lg bg-white text-sm focus:px-3 focus:py-2 font-semibold text-primary focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
      >
        Skip to content
      </a>
      <header ref={topBar} className="no-print sticky top-0 z-30 bg-primary text-white shadow">
        {/* below lg the warehouse search has no room beside Find, the outbox badge and Scan: it takes a row of its own */}
        <div className="grid grid-cols-[auto_auto_minmax(0,1fr)_auto] grid-rows-[3.5rem] items-center gap-x-3 px-3 sm:px-4">
          <button
            type="button"
            aria-label="Open menu"
            onClick={() => setMenuOpen(true)}
            className="flex items-center justify-center rounded-lg p-2 hover:bg-white/10 focus-visible:outline-3 focus-visible:outline-white pointer-coarse:h-11 pointer-coarse:w-11"
          >
            <Menu className="h-6 w-6" aria-hidden />
          </button>
          <Link
            to={paths.landing}
            className="flex shrink-0 items-center gap-2 rounded font-bold focus-visible:outline-3 focus-visible:outline-white pointer-coarse:min-h-11 pointer-coarse:min-w-11"
            aria-label="Warehouse Manager home"
          >
            <Warehouse className="h-6 w-6" aria-hidden />
            {/* on a warehouse page a small laptop gives the name's room to the search */}
            <span className={onWarehousePage ? 'hidden xl:inline' : 'hidden sm:inline'}>
              Warehouse Manager
            </span>
          </Link>
          {onWarehousePage && (
            <div className="col-span-full row-start-2 flex min-w-0 justify-end pb-2 lg:col-span-1 lg:col-start-3 lg:row-start-1 lg:pb-0">
              <SearchBox />
            </div>
          )}
          <div className="col-start-4 row-start-1 flex items-center gap-3">
            <CompanySearch />
            <OutboxBadge />
            <ScanButton warehouseId={currentWarehouseId} />
          </div>
        </div>
      </header>
      <MenuDrawer
        open={menuOpen}
        onOpenChange={setMenuOpen}
        warehouses={warehouses.data ?? []}
        warehousesLoading={warehouses.isPending}
        onLogout={() => {
          // changes still waiting on this tablet would be sent by whoever signs in next, or not at all: ask first
          if (floorOutbox.list().length > 0) setAskSignOut(true);
          else signOut();
        }}
      />
      <ConfirmDialog
        open={askSignOut}
        onOpenChange={setAskSignOut}
        title="Sign out with changes not synced?"
        message={`${formatCount(waiting, 'change')} made on this device ${waiting === 1 ? 'has' : 'have'} not reached the server yet. They stay on this device and are sent once someone of your company signs in here again with a connection.`}
        confirmLabel="Sign out anyway"
        cancelLabel="Stay signed in"
        danger
        onConfirm={() => {
          setAskSignOut(false);
          signOut();
        }}
      />
      <main id="main" tabIndex={-1} className="flex-1 focus:outline-none">
        {/* no Suspense here: a page's code loads during the navigation's transition (see router.tsx) */}
        {gate && !can(gate.needed) ? <NotYours page={gate} /> : <Outlet />}
      </main>
    </div>
  );
}
