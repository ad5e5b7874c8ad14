import { Boxes, FileDown, LogOut, Receipt } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Navigate, Route, Routes, useLocation, useNavigate } from 'react-router';
import { Toaster, toast } from 'sonner';
import type { PortalInvoicesDto } from '@domain/schemas/customer.schema';
import {
  usePortalInvoices,
  usePortalMe,
  usePortalSignIn,
  usePortalSignOut,
  usePortalUnits,
} from '../../api/portal';
import { PortalInventories } from '../../components/inventory/portal-inventories';
import { Button } from '../../components/ui/button';
import { EmptyState } from '../../components/ui/empty-state';
import { ErrorList, QueryFailed } from '../../components/ui/error-list';
import { QueryView } from '../../components/ui/query-view';
import { Spinner } from '../../components/ui/spinner';
import { errorMessages } from '../../lib/api-client';
import { formatDate } from '../../lib/format';
import { useDocumentTitle } from '../../lib/use-document-title';
import { PortalRequests } from './portal-requests';

const money = (minor: number, data: PortalInvoicesDto) =>
  new Intl.NumberFormat(data.locale, { style: 'currency', currency: data.currency }).format(minor / 100);

/** `/portal/sign-in#token`: uses the one-time link (the token stays in the fragment, out of every log). */
function PortalSignIn() {
  useDocumentTitle('Signing in');
  const { hash } = useLocation();
  const navigate = useNavigate();
  const signIn = usePortalSignIn();
  const tried = useRef(false);
  const token = hash.replace(/^#/, '');
  useEffect(() => {
    if (tried.current || !token) return;
    tried.current = true;
    signIn.mutate(token, { onSuccess: () => void navigate('/portal', { replace: true }) });
  }, [token, signIn, navigate]);
  if (!token || signIn.isError)
    return (
      <main className="mx-auto max-w-md p-6">
        <h1 className="mb-4 text-xl font-bold text-primary">Your storage</h1>
        <ErrorList
          messages={
            signIn.isError
              ? errorMessages(signIn.error)
              : ['This link is incomplete. Open the whole link from your e-mail.']
          }
        />
      </main>
    );
  return <Spinner label="Signing you in..." />;
}

function PortalHome() {
  const me = usePortalMe();
  const signedIn = Boolean(me.data);
  const units = usePortalUnits(signedIn);
  const invoices = usePortalInvoices(signedIn);
  const signOut = usePortalSignOut();
  useDocumentTitle('Your storage');
  if (me.isPending) return <Spinner label="Loading your storage..." />;
  if (me.isError) return <QueryFailed query={me} />;
  if (!me.data)
    return (
      <main className="mx-auto max-w-md p-6">
        <h1 className="mb-2 text-xl font-bold text-primary">Your storage</h1>
        <p className="text-slate-600">
          You are signed out. Open the link from the e-mail the company that stores your goods sent you, or
          ask them for a new one.
        </p>
      </main>
    );
  return (
    <main className="mx-auto w-full max-w-xl space-y-6 p-4">
      <header className="flex items-start justify-between gap-3">
        <div>
          <p className="text-sm text-slate-500">{me.data.company}</p>
          <h1 className="text-2xl font-bold text-primary">Your storage</h1>
          <p className="text-sm text-slate-600">{me.data.name}</p>
        </div>
        <Button
          variant="secondary"
          onClick={() =>
            signOut.mutate(undefined, {
              onSuccess: () => toast.success('Signed out'),
              onError: (error) => toast.error(errorMessages(error).join(' ')),
            })
          }
        >
          <LogOut className="h-4 w-4" aria-hidden /> Sign out
        </Button>
      </header>

      <section aria-labelledby="portal-units">
        <h2 id="portal-units" className="mb-2 text-lg font-semibold text-slate-800">
          Units
        </h2>
        <QueryView
          query={units}
          loading="Loading your units..."
          empty={<EmptyState icon={Boxes} title="No units in storage" />}
        >
          {(list) => (
            <ul className="space-y-2">
              {list.map((unit) => (
                <li
                  key={unit.id}
                  className="rounded-lg border border-slate-200 bg-white p-3 shadow-sm"
                  data-testid="portal-unit"
                >
                  <div className="flex items-baseline justify-between gap-2">
                    <span className="font-mono text-base font-semibold text-slate-900">
                      {unit.number ?? 'No number'}
                    </span>
                    <span className="text-sm capitalize text-slate-600">{unit.type}</span>
                  </div>
                  <p className="text-sm text-slate-600">
                    {unit.warehouse ?? 'Being moved'} · since {formatDate(unit.since, invoices.data?.locale)}
                    {unit.order && ` · order ${unit.order}`}
                  </p>
                </li>
              ))}
            </ul>
          )}
        </QueryView>
      </section>

      <PortalInventories units={units.data} locale={invoices.data?.locale} />
      <PortalRequests units={units.data} formatDay={(iso) => formatDate(iso, invoices.data?.locale)} />

      <section aria-labelledby="portal-invoices">
        <h2 id="portal-invoices" className="mb-2 text-lg font-semibold text-slate-800">
          Invoices
        </h2>
        <QueryView query={invoices} loading="Loading your invoices...">
          {(answer) => (
            <>
              <p className="mb-2 text-base">
                Balance: <strong data-testid="portal-balance">{money(answer.balance, answer)}</strong>
              </p>
              {answer.invoices.length === 0 ? (
                <EmptyState icon={Receipt} title="No invoices yet" />
              ) : (
                <ul className="space-y-2">
                  {answer.invoices.map((invoice) => (
                    <li key={invoice.id} className="rounded-lg border border-slate-200 bg-white p-3">
                      <div className="flex justify-between gap-2">
                        <span className="font-semibold">Invoice {invoice.number}</span>
                        <span>{money(invoice.total, answer)}</span>
                      </div>
                      <p className="text-sm text-slate-600">
                        {invoice.issueDate && `Issued ${formatDate(invoice.issueDate, answer.locale)}`}
                        {invoice.dueDate && ` · due ${formatDate(invoice.dueDate, answer.locale)}`}
                        {` · open ${money(invoice.open, answer)}`}
                      </p>
                      <a
                        href={`/api/portal/invoices/${invoice.id}/invoice.pdf`}
                        download
                        className="mt-1 inline-flex min-h-11 items-center gap-1.5 text-sm font-semibold text-accent underline"
                      >
                        <FileDown className="h-4 w-4" aria-hidden /> Download invoice {invoice.number} (PDF)
                      </a>
                    </li>
                  ))}
                </ul>
              )}
            </>
          )}
        </QueryView>
      </section>
    </main>
  );
}

/** The customer portal (issue 29): phone-first, its own session, none of the staff's screens. */
export default function PortalApp() {
  return (
    <div className="min-h-dvh bg-slate-50">
      <Toaster position="top-center" richColors />
      <Routes>
        <Route path="sign-in" element={<PortalSignIn />} />
        <Route index element={<PortalHome />} />
        <Route path="*" element={<Navigate to="/portal" replace />} />
      </Routes>
    </div>
  );
}
