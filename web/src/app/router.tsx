import { lazy, Suspense, useDeferredValue, useEffect, useState } from 'react';
import { BrowserRouter, Navigate, Route, Routes, useLocation } from 'react-router';
import { useSession } from '../api/session';
import { useWarehouses } from '../api/warehouses';
import { ErrorList } from '../components/ui/error-list';
import { Spinner } from '../components/ui/spinner';
import { billingTabs, paths, routePatterns } from '../config/paths';
import { afterSignIn } from '../lib/after-sign-in';
import { errorMessages } from '../lib/api-client';
import { useHeadingFocusOnNavigation } from '../lib/use-heading-focus';
import type { WarehouseDto } from '@domain/schemas/warehouse.schema';
import { OfflineBanner } from '../components/ui/offline-banner';
import { LazyToaster } from './toaster';

// Each screen is its own chunk, so the landing page does not load the editors.
// The signed-in chrome (drawer, dialogs) is a chunk of its own too.
const loadAppLayout = () => import('./layout/app-layout');
const loadDashboardPage = () => import('../features/warehouses/pages/dashboard-page');
const loadWarehousePage = () => import('../features/warehouses/pages/warehouse-page');
const AppLayout = lazy(() => loadAppLayout().then((m) => ({ default: m.AppLayout })));
const LandingPage = lazy(() => import('../features/landing/landing-page'));
const LoginPage = lazy(() => import('../features/auth/pages/login-page'));
const DashboardPage = lazy(loadDashboardPage);
const AddWarehousePage = lazy(() => import('../features/warehouses/pages/add-warehouse-page'));
const WarehousePage = lazy(loadWarehousePage);
const EditWarehousePage = lazy(() => import('../features/layout-editor/pages/edit-warehouse-page'));
const EditVaultPage = lazy(() => import('../features/vaults/pages/edit-vault-page'));
const StagePage = lazy(() => import('../features/stage/pages/stage-page'));
const StatisticsPage = lazy(() => import('../features/statistics/pages/statistics-page'));
const PrintStudioPage = lazy(() => import('../features/print-studio/pages/print-studio-page'));
const ImportPage = lazy(() => import('../features/import/pages/import-page'));
const ChecklistFillPage = lazy(() => import('../features/checklists/pages/checklist-fill-page'));
const ChecklistsAdminPage = lazy(() => import('../features/checklists/pages/checklists-admin-page'));
const MessagesPage = lazy(() => import('../features/contact/pages/messages-page'));
const TeamPage = lazy(() => import('../features/team/pages/team-page'));
const BackupsPage = lazy(() => import('../features/backups/pages/backups-page'));
const ApiReferencePage = lazy(() => import('../features/api-reference/pages/api-reference-page'));
const ActivityPage = lazy(() => import('../features/activity/pages/activity-page'));
const JoinPage = lazy(() => import('../features/team/pages/join-page'));
const PullListsPage = lazy(() => import('../features/pull-lists/pages/pull-lists-page'));
const PullListPage = lazy(() => import('../features/pull-lists/pages/pull-list-page'));
const ReceivePage = lazy(() => import('../features/receiving/pages/receive-page'));
const InventoryPage = lazy(() => import('../features/inventory/pages/inventory-page'));
const VaultLinkPage = lazy(() => import('../features/scan/pages/vault-link-page'));
const ChecksPage = lazy(() => import('../features/scan/pages/checks-page'));
const CheckPage = lazy(() => import('../features/scan/pages/check-page'));
const BillingPage = lazy(() => import('../features/billing/pages/billing-page'));
const CustomersPage = lazy(() => import('../features/customers/pages/customers-page'));
const RequestsPage = lazy(() => import('../features/requests/pages/requests-page'));
const RequestPage = lazy(() => import('../features/requests/pages/request-page'));
const LoadOutPage = lazy(() => import('../features/scan/pages/load-out-page'));
// the customer portal (issue 29): its own session, outside the staff's session gate
const PortalApp = lazy(() => import('../features/portal/portal-app'));
const RackView = lazy(() =>
  import('../features/racks/components/rack-view').then((m) => ({ default: m.RackView })),
);

// The signed-in chrome and the screen a browser opens on (a tablet reloading its warehouse, the dashboard) load side by
// side once the session is known, instead of the screen's code only after the chrome's: one round trip less.
function preloadScreen(pathname: string) {
  if (pathname === paths.dashboard) void Promise.all([loadAppLayout(), loadDashboardPage()]);
  else if (pathname.startsWith('/warehouse/')) void Promise.all([loadAppLayout(), loadWarehousePage()]);
}

const VaultTimeline = lazy(() =>
  import('../features/activity/components/vault-timeline').then((m) => ({ default: m.VaultTimeline })),
);
const renderVaultTimeline = (vaultId: number, version: number) => (
  <Suspense fallback={<Spinner label="Loading history..." />}>
    <VaultTimeline vaultId={vaultId} version={version} />
  </Suspense>
);

const renderRackView = (warehouse: WarehouseDto) => (
  <Suspense fallback={<Spinner />}>
    <RackView warehouse={warehouse} />
  </Suspense>
);

const CHECKLIST_PATH = /^\/([^/]+)-checklist\/?$/;
// the signed-in screens: a signed-out visitor who opens one signs in first and then lands on it
const SIGNED_IN_PATH =
  /^\/(dashboard|stage|add-warehouse|statistics|print-studio|import|messages|team|backups|api-reference|activity|pull-lists|checks|receive|inventory\/|billing|customers|requests|warehouse\/|edit\/|v\/)/;

// set once this tab has been signed in: after signing out, the screen left behind is not a deep link to return to
const visit = { signedIn: false };

/**
 * `/{warehouse-name}-checklist` for any warehouse; signed out, a signed-in screen asks to sign in first (and
 * remembers where to return); every other unknown path goes home.
 */
function ChecklistOrHome({ signedIn }: { signedIn: boolean }) {
  const { pathname, search, hash } = useLocation();
  const match = CHECKLIST_PATH.exec(pathname);
  if (match) return <ChecklistFillPage slug={decodeURIComponent(match[1]!)} />;
  if (!signedIn && !visit.signedIn && SIGNED_IN_PATH.test(pathname)) {
    return <Navigate to={paths.login} replace state={{ from: `${pathname}${search}${hash}` }} />;
  }
  return <Navigate to={paths.landing} replace />;
}

/** Signed in on the sign-in page (the session arrived): on to the page the user came for. */
function LeaveLogin() {
  const { state } = useLocation();
  return <Navigate to={afterSignIn(state)} replace />;
}

function SignedOutRoutes() {
  const { pathname } = useLocation();
  const quiet = pathname === paths.landing || pathname === paths.login;
  return (
    <>
      {!quiet && <LazyToaster />}
      <Routes>
        <Route path={paths.landing} element={<LandingPage />} />
        <Route path={paths.login} element={<LoginPage />} />
        <Route path={paths.checklistsAdmin} element={<ChecklistsAdminPage />} />
        <Route path={paths.join} element={<JoinPage />} />
        <Route path="*" element={<ChecklistOrHome signedIn={false} />} />
      </Routes>
    </>
  );
}

function SignedInRoutes() {
  useEffect(() => {
    visit.signedIn = true;
  }, []);
  return (
    <>
      <LazyToaster />
      <OfflineBanner />
      <Routes>
        <Route path={paths.landing} element={<Navigate to={paths.dashboard} replace />} />
        <Route path={paths.login} element={<LeaveLogin />} />
        <Route path={paths.join} element={<JoinPage />} />
        <Route element={<AppLayout />}>
          <Route path={paths.dashboard} element={<DashboardPage />} />
          <Route path={paths.stage} element={<StagePage />} />
          <Route path={routePatterns.warehouse} element={<WarehousePage rackView={renderRackView} />} />
          <Route path={paths.addWarehouse} element={<AddWarehousePage />} />
          <Route path={routePatterns.editVault} element={<EditVaultPage timeline={renderVaultTimeline} />} />
          <Route path={routePatterns.editWarehouse} element={<EditWarehousePage />} />
          <Route path={paths.statistics} element={<StatisticsPage />} />
          <Route path={paths.printStudio} element={<PrintStudioPage />} />
          <Route path={paths.import} element={<ImportPage />} />
          <Route path={paths.checklistsAdmin} element={<ChecklistsAdminPage />} />
          <Route path={paths.messages} element={<MessagesPage />} />
          <Route path={paths.team} element={<TeamPage />} />
          <Route path={paths.backups} element={<BackupsPage />} />
          <Route path={paths.apiReference} element={<ApiReferencePage />} />
          <Route path={paths.activity} element={<ActivityPage />} />
          <Route path={paths.pullLists} element={<PullListsPage />} />
          <Route path="/pull-lists/:id" element={<PullListPage />} />
          <Route path={paths.receive} element={<ReceivePage />} />
          <Route path="/inventory/:id" element={<InventoryPage />} />
          <Route path="/v/:code" element={<VaultLinkPage />} />
          <Route path={paths.customers} element={<CustomersPage />} />
          <Route path={paths.requests} element={<RequestsPage />} />
          <Route path="/requests/:id" element={<RequestPage />} />
          <Route path="/requests/:id/load-out" element={<LoadOutPage />} />
          <Route path={paths.checks} element={<ChecksPage />} />
          <Route path="/checks/:id" element={<CheckPage />} />
          {billingTabs.map((tab) => (
            <Route key={tab} path={paths.billing(tab)} element={<BillingPage tab={tab} />} />
          ))}
          <Route path="*" element={<ChecklistOrHome signedIn />} />
        </Route>
      </Routes>
    </>
  );
}

function SessionGate() {
  const session = useSession();
  useHeadingFocusOnNavigation();
  // the company's warehouses load with the session, not after the screens' code
  useWarehouses(session.data?.companyId);
  // after the company list's request, so the code does not hold up the data on the browser's few connections
  const signedIn = Boolean(session.data);
  const { pathname } = useLocation();
  const [opening] = useState(pathname);
  useEffect(() => {
    if (signedIn) preloadScreen(opening);
  }, [signedIn, opening]);
  // The switch from the session spinner (or from the sign-in page) to the screens renders in the background, so the
  // spinner stays until their code has loaded instead of a second spinner flashing up; navigations are transitions
  // too. That is why no Suspense boundary sits between here and the pages: a boundary that shows its fallback
  // makes React hold back the next reveal by up to 300 ms.
  const state = useDeferredValue(
    // a session known from before (this tablet's copy while offline) stays signed in when asking again fails
    session.isPending ? 'pending' : session.data ? 'signed-in' : session.isError ? 'error' : 'signed-out',
  );
  if (state === 'pending') return <Spinner label="Loading your session..." />;
  if (state === 'error') {
    return (
      <div className="mx-auto max-w-md p-8">
        <ErrorList messages={errorMessages(session.error)} />
      </div>
    );
  }
  return state === 'signed-in' ? <SignedInRoutes /> : <SignedOutRoutes />;
}

export function AppRouter() {
  return (
    <BrowserRouter>
      <Suspense fallback={<Spinner />}>
        <Routes>
          <Route path={`${paths.portal}/*`} element={<PortalApp />} />
          <Route path="*" element={<SessionGate />} />
        </Routes>
      </Suspense>
    </BrowserRouter>
  );
}
