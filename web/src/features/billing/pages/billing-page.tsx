import { useEffect, useRef } from 'react';
import { NavLink } from 'react-router';
import { useBillingSettings } from '@/api/billing';
import { QueryFailed } from '@/components/ui/error-list';
import { Page } from '@/components/ui/page';
import { Spinner } from '@/components/ui/spinner';
import { type BillingTab, billingTabs, paths } from '@/config/paths';
import { useDocumentTitle } from '@/lib/use-document-title';
import { AccountsTab } from '../components/accounts-tab';
import { AgingTab, InvoicesTab, PaymentsTab } from '../components/ledger-tabs';
import { NotBilledTab } from '../components/not-billed-tab';
import { RatesTab } from '../components/rates-tab';
import { RunTab } from '../components/run-tab';

const LABELS: Record<BillingTab, string> = {
  accounts: 'Accounts',
  'not-billed': 'Not billed',
  rates: 'Rates',
  run: 'Billing run',
  invoices: 'Invoices',
  payments: 'Payments',
  aging: 'Aging',
};

/** Storage billing (issue 28), for the Office role and Managers: one page, a tab per part. */
export default function BillingPage({ tab }: { tab: BillingTab }) {
  useDocumentTitle(`Billing: ${LABELS[tab]}`);
  const settings = useBillingSettings();
  // on a phone the tabs scroll sideways: the open one is brought into view (the last ones start off the screen)
  const tabs = useRef<HTMLElement>(null);
  useEffect(() => {
    tabs.current
      ?.querySelector('[aria-current="page"]')
      ?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [tab]);
  return (
    <Page title="Billing">
      <nav
        ref={tabs}
        aria-label="Billing"
        className="mb-4 flex gap-1 overflow-x-auto border-b border-slate-200"
      >
        {billingTabs.map((t) => (
          <NavLink
            key={t}
            to={paths.billing(t)}
            end
            className={({ isActive }) =>
              `inline-flex min-h-11 items-center px-3 text-sm font-semibold whitespace-nowrap ${isActive ? 'border-b-2 border-accent text-accent' : 'text-slate-600 hover:text-slate-900'}`
            }
          >
            {LABELS[t]}
          </NavLink>
        ))}
      </nav>
      {settings.isPending ? (
        <Spinner />
      ) : settings.isError ? (
        <QueryFailed query={settings} />
      ) : tab === 'accounts' ? (
        <AccountsTab currency={settings.data.currency} />
      ) : tab === 'not-billed' ? (
        <NotBilledTab />
      ) : tab === 'rates' ? (
        <RatesTab settings={settings.data} />
      ) : tab === 'run' ? (
        <RunTab />
      ) : tab === 'invoices' ? (
        <InvoicesTab />
      ) : tab === 'payments' ? (
        <PaymentsTab currency={settings.data.currency} />
      ) : (
        <AgingTab />
      )}
    </Page>
  );
}
