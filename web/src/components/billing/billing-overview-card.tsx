import { CalendarClock, Lock, Wallet } from 'lucide-react';
import { Link } from 'react-router';
import { useBillingOverview } from '../../api/billing';
import { QueryFailed } from '../ui/error-list';
import { Spinner } from '../ui/spinner';
import { paths } from '../../config/paths';
import { useFormat } from '../../lib/format';
import { useMoney } from '../../lib/use-money';

/**
 * The dashboard's billing card (issue 28), for the Office role and Managers only (the page does not render it for Floor
 * and Viewer, and the server refuses them the overview): the overdue total, holds, and the SIT accounts converting to
 * Permanent in the next 30 days.
 */
export function BillingOverviewCard() {
  const overview = useBillingOverview(true);
  const money = useMoney();
  const format = useFormat();
  return (
    <section
      aria-labelledby="billing-overview-title"
      className="mb-6 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm"
      data-testid="billing-overview"
    >
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <h2 id="billing-overview-title" className="text-lg font-semibold text-primary">
          Storage billing
        </h2>
        <Link
          to={paths.billing('aging')}
          className="inline-flex min-h-10 items-center rounded-lg px-2 text-sm font-semibold text-accent hover:underline focus-visible:outline-2 focus-visible:outline-accent pointer-coarse:min-h-11"
        >
          Aging report
        </Link>
      </div>
      {overview.isPending && <Spinner label="Loading billing..." />}
      {overview.isError && <QueryFailed query={overview} />}
      {overview.isSuccess && (
        <div className="grid gap-4 md:grid-cols-2">
          <dl className="grid grid-cols-2 gap-3">
            <div className="rounded-xl bg-red-50 p-3">
              <dt className="flex items-center gap-1.5 text-xs font-semibold text-red-800 uppercase">
                <Wallet className="h-4 w-4" aria-hidden /> Overdue
              </dt>
              <dd className="mt-1 text-2xl font-bold text-red-900 tabular-nums" data-testid="overdue-total">
                {money(overview.data.overdue_total, overview.data.currency)}
              </dd>
              <dd className="text-xs text-red-800">
                {format.count(overview.data.overdue_accounts, 'account')} past due
              </dd>
            </div>
            <div className="rounded-xl bg-slate-50 p-3">
              <dt className="flex items-center gap-1.5 text-xs font-semibold text-slate-700 uppercase">
                <Lock className="h-4 w-4" aria-hidden /> On hold
              </dt>
              <dd className="mt-1 text-2xl font-bold text-slate-900 tabular-nums">{overview.data.on_hold}</dd>
              <dd className="text-xs text-slate-700">
                {overview.data.may_hold > 0
                  ? `${format.count(overview.data.may_hold, 'more account')} ${overview.data.hold_after_days}+ days overdue`
                  : `Holds from ${overview.data.hold_after_days} days overdue`}
              </dd>
            </div>
          </dl>
          <div>
            <h3 className="mb-1 flex items-center gap-1.5 text-sm font-semibold text-slate-700">
              <CalendarClock className="h-4 w-4" aria-hidden /> SIT conversions in the next 30 days
            </h3>
            {overview.data.upcoming_conversions.length === 0 ? (
              <p className="text-sm text-slate-600">
                No SIT account converts to Permanent in the next 30 days.
              </p>
            ) : (
              <ul className="divide-y divide-slate-100 text-sm" data-testid="upcoming-conversions">
                {overview.data.upcoming_conversions.map((c) => (
                  <li key={c.account_id} className="flex items-center justify-between gap-2 py-1.5">
                    <span className="font-medium text-slate-800">{c.customer_name}</span>
                    <span className="text-slate-600">
                      {format.date(c.conversion_date)} ·{' '}
                      {c.days_left === 0 ? 'today' : `in ${format.count(c.days_left, 'day')}`}
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </div>
        </div>
      )}
    </section>
  );
}
