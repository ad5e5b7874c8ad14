import { BarChart3 } from 'lucide-react';
import { Link } from 'react-router';
import { occupancyColour, occupancyPercent, type OccupancyColour } from '@domain/rules/occupancy';
import type { WarehouseSummaryDto } from '@domain/schemas/warehouse.schema';
import type { WarehouseRevenueDto } from '@domain/schemas/billing.schema';
import { useBillingOverview } from '@/api/billing';
import { useRole, useSession } from '@/api/session';
import { useMoney } from '@/lib/use-money';
import { useWarehouses } from '@/api/warehouses';
import { Page } from '@/components/ui/page';
import { paths } from '@/config/paths';
import { statisticsRows } from '../statistics-rows';
import { EmptyState } from '@/components/ui/empty-state';
import { QueryView } from '@/components/ui/query-view';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useFormat } from '@/lib/format';

const occupancyText: Record<OccupancyColour, string> = {
  // the 700 shades keep 4.5:1 on white (the 500s of yellow and orange were 1.9:1 and 2.8:1)
  red: 'text-red-700',
  orange: 'text-orange-700',
  yellow: 'text-yellow-700',
  green: 'text-green-700',
};

/** The monthly recurring storage revenue of one warehouse (issue 28), for the Office role and Managers. */
function WarehouseRevenue({ revenue }: { revenue: WarehouseRevenueDto | undefined | 'loading' | 'failed' }) {
  const money = useMoney();
  const format = useFormat();
  const currency = useBillingOverview(true).data?.currency ?? 'USD';
  return (
    <div className="border-t border-slate-100 px-5 py-3 text-sm" data-testid="warehouse-revenue">
      <p className="flex items-baseline justify-between gap-4">
        <span className="text-slate-700">Monthly storage revenue</span>
        <span className="font-semibold text-slate-900 tabular-nums">
          {revenue === 'loading'
            ? 'Loading...'
            : revenue === 'failed'
              ? 'Not available'
              : money(revenue?.monthly ?? 0, currency)}
        </span>
      </p>
      {typeof revenue === 'object' && (
        <p className="mt-0.5 text-xs text-slate-600">
          {format.count(revenue.units, 'billed unit')} stored
          {revenue.unrated > 0 ? ` · ${format.count(revenue.unrated, 'unit')} without a storage rate` : ''}
        </p>
      )}
    </div>
  );
}

function WarehouseStatistics({
  warehouse,
  revenue,
}: {
  warehouse: WarehouseSummaryDto;
  revenue?: WarehouseRevenueDto | 'loading' | 'failed' | null;
}) {
  const format = useFormat();
  const percent = occupancyPercent(warehouse.stats.realVaultCount, warehouse.warehouseCapacity);
  const titleId = `statistics-${warehouse.id}`;
  return (
    <section
      aria-labelledby={titleId}
      className="overflow-hidden rounded-xl border border-slate-200 bg-white shadow-sm"
    >
      <header className="flex items-start justify-between gap-4 border-b border-slate-100 px-5 py-4">
        <h2 id={titleId} className="min-w-0 text-lg font-semibold break-words text-primary">
          <Link
            to={paths.warehouse(warehouse.name)}
            className="inline-flex min-h-11 items-center hover:underline focus-visible:outline-2 focus-visible:outline-accent"
          >
            {warehouse.name}
          </Link>
        </h2>
        <p className="shrink-0 text-right">
          <span
            className={`block text-2xl font-bold tabular-nums ${occupancyText[occupancyColour(percent)]}`}
            data-occupancy={occupancyColour(percent)}
          >
            {format.percent(percent)}
          </span>
          <span className="text-xs text-slate-500">occupied</span>
        </p>
      </header>
      <table className="w-full text-sm">
        <caption className="sr-only">Statistics of {warehouse.name}</caption>
        <thead className="bg-slate-50 text-left text-xs tracking-wide text-slate-500 uppercase">
          <tr>
            <th scope="col" className="px-5 py-2 font-semibold">
              Metric
            </th>
            <th scope="col" className="px-5 py-2 text-right font-semibold">
              Value
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {statisticsRows(warehouse).map(({ metric, value }) => (
            <tr key={metric}>
              <th scope="row" className="px-5 py-3 text-left font-normal text-slate-700">
                {metric}
              </th>
              <td className="px-5 py-3 text-right font-semibold text-slate-900 tabular-nums">
                {format.number(value)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {revenue !== null && <WarehouseRevenue revenue={revenue} />}
    </section>
  );
}

export default function StatisticsPage() {
  useDocumentTitle('Statistics');
  const session = useSession();
  const warehouses = useWarehouses(session.data?.companyId);
  // revenue beside occupancy: asked for, and shown, only for the Office role and Managers
  const { can } = useRole();
  const billing = can('office');
  const overview = useBillingOverview(billing);
  const revenueOf = (id: number) =>
    !billing
      ? null
      : overview.isPending
        ? 'loading'
        : overview.isError
          ? 'failed'
          : overview.data.revenue.find((r) => r.warehouse_id === id);

  return (
    <Page title="Statistics">
      <QueryView
        query={warehouses}
        loading="Loading statistics..."
        empty={
          <EmptyState icon={BarChart3} title="No warehouses yet">
            Statistics appear here once you add a warehouse.
          </EmptyState>
        }
      >
        {(all) => (
          <div className="grid grid-cols-1 gap-4 md:grid-cols-2 xl:grid-cols-3">
            {all.map((warehouse) => (
              <WarehouseStatistics
                key={warehouse.id}
                warehouse={warehouse}
                revenue={revenueOf(warehouse.id)}
              />
            ))}
          </div>
        )}
      </QueryView>
    </Page>
  );
}
