/**
 * The dashboard's figures (GET /api/admin/dashboard): sales today and over 30 days with the chart, the
 * plans, NetSuite's backlog and the queues, in staff words. Plans at risk are counted from the at-risk
 * list for the roles that may see plans.
 */
import { formatOrderDate } from '@nh/shared/contracts/admin';
import { DASHBOARD_DAYS, QUEUE_LABELS, type Dashboard } from '@nh/shared/contracts/admin-dashboard';
import { useQuery } from '@tanstack/react-query';
import { RefreshCw } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { serverMessageOf } from '@/lib/query-client';
import { cn } from '@/lib/utils';
import { planQueries } from '../../plans/api';
import { formatMoney } from '../../plans/format';
import { useCan } from '../../shell/role-gate';
import { columnsOf, DataTable } from '../../ui/data-table';
import { SYNC_STATUS_LABELS } from '../../ui/status-labels';
import { RangeReports } from '../../reports/components/range-reports';
import { dashboardQuery } from '../api';
import { DailyTable, SalesChart, type ChartMetric } from './sales-chart';

/** One figure with its words; a link when there is a screen behind it. */
function Stat({
  label,
  value,
  detail,
  to,
  tone,
  testId,
}: {
  label: string;
  value: ReactNode;
  detail?: ReactNode;
  to?: string;
  tone?: 'warn';
  testId?: string;
}) {
  const body = (
    <>
      <dt className="text-sm text-stone-600">{label}</dt>
      <dd className={cn('mt-1 break-words text-2xl font-semibold tabular-nums', tone === 'warn' ? 'text-amber-800' : 'text-brand-900')}>
        {value}
      </dd>
      {detail && <dd className="mt-0.5 text-xs text-stone-500">{detail}</dd>}
    </>
  );
  return (
    <div className="min-w-0 rounded-xl border border-stone-200 bg-white p-4" data-testid={testId}>
      {to ? (
        <Link
          to={to}
          className="block rounded-md focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 [&_dd:first-of-type]:hover:underline"
        >
          <dl>{body}</dl>
        </Link>
      ) : (
        <dl>{body}</dl>
      )}
    </div>
  );
}

const count = (n: number) => n.toLocaleString('en-US');

/** Revenue is net of refunds and voids: say how much was given back, when anything was. */
const refundedDetail = (refunded: string) => (Number(refunded) > 0 ? `After ${formatMoney(refunded)} refunded` : undefined);

function Sales({ data }: { data: Dashboard }) {
  const [metric, setMetric] = useState<ChartMetric>('revenue');
  return (
    <section aria-labelledby="dashboard-sales" className="grid grid-cols-1 gap-4">
      <h2 id="dashboard-sales" className="text-xl font-semibold text-brand-900">
        Sales
      </h2>
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-5">
        <Stat label="Orders today" value={count(data.today.orders)} testId="stat-orders-today" />
        <Stat
          label="Revenue today"
          value={formatMoney(data.today.revenue)}
          detail={refundedDetail(data.today.refunded)}
          testId="stat-revenue-today"
        />
        <Stat label={`Orders, last ${DASHBOARD_DAYS} days`} value={count(data.last30Days.orders)} testId="stat-orders-30" />
        <Stat
          label={`Revenue, last ${DASHBOARD_DAYS} days`}
          value={formatMoney(data.last30Days.revenue)}
          detail={refundedDetail(data.last30Days.refunded)}
          testId="stat-revenue-30"
        />
        <Stat
          label="Average order value"
          value={formatMoney(data.last30Days.averageOrderValue)}
          detail={`Last ${DASHBOARD_DAYS} days`}
          testId="stat-aov"
        />
      </div>
      <Card>
        <CardHeader className="flex-row flex-wrap items-center justify-between gap-3 pb-2">
          <CardTitle className="text-base">{metric === 'revenue' ? 'Revenue' : 'Orders'} per day</CardTitle>
          <div className="flex gap-1" role="group" aria-label="Chart shows">
            {(['revenue', 'orders'] as const).map((m) => (
              <Button
                key={m}
                size="sm"
                variant={metric === m ? 'default' : 'outline'}
                aria-pressed={metric === m}
                onClick={() => setMetric(m)}
              >
                {m === 'revenue' ? 'Revenue' : 'Orders'}
              </Button>
            ))}
          </div>
        </CardHeader>
        <CardContent className="grid grid-cols-1 gap-3">
          <SalesChart days={data.daily} metric={metric} />
          <p className="text-xs text-stone-500">
            Paid orders (processing, shipped or delivered) by UTC day, before refunds. Today is the dark bar.
          </p>
          <details className="text-sm">
            <summary className="cursor-pointer font-medium text-brand-700">Daily figures</summary>
            <div className="mt-2 max-h-80 overflow-y-auto" tabIndex={0} role="region" aria-label="Daily figures">
              <DailyTable days={data.daily} />
            </div>
          </details>
        </CardContent>
      </Card>
    </section>
  );
}

/** The at-risk list's total (the roles that may see plans). */
function AtRiskStat() {
  const atRisk = useQuery(planQueries.atRiskCount);
  const value = atRisk.isPending ? '…' : atRisk.isError ? '—' : count(atRisk.data.total);
  return (
    <Stat
      label="At-risk plans"
      value={value}
      detail="Plans whose next renewal may fail"
      to="/admin/subscriptions?tab=at-risk"
      tone={atRisk.data?.total ? 'warn' : undefined}
      testId="stat-at-risk"
    />
  );
}

function Plans({ plans, suggestions }: { plans: Dashboard['plans']; suggestions: Dashboard['cadenceSuggestions'] }) {
  const canSee = useCan('subscriptions.view');
  const link = (to: string) => (canSee ? to : undefined);
  return (
    <section aria-labelledby="dashboard-plans" className="grid grid-cols-1 gap-4">
      <h2 id="dashboard-plans" className="text-xl font-semibold text-brand-900">
        Subscribe &amp; Save plans
      </h2>
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-3">
        <Stat label="Active plans" value={count(plans.active)} to={link('/admin/subscriptions?status=active')} testId="stat-active-plans" />
        <Stat
          label="Monthly recurring revenue"
          value={formatMoney(plans.monthlyRecurringRevenue)}
          detail="Active plans as a monthly amount"
          testId="stat-mrr"
        />
        <Stat
          label="Renewals due in the next 7 days"
          value={count(plans.renewalsDueNext7Days)}
          detail={`${formatMoney(plans.renewalsDueNext7DaysAmount)} to charge`}
          testId="stat-renewals-due"
        />
        <Stat
          label="Payment failing (being retried)"
          value={count(plans.inDunning)}
          to={link('/admin/subscriptions?status=active&minFailedAttempts=1')}
          tone={plans.inDunning > 0 ? 'warn' : undefined}
          testId="stat-dunning"
        />
        <Stat label="Paused plans" value={count(plans.paused)} to={link('/admin/subscriptions?status=paused')} testId="stat-paused" />
        {canSee && <AtRiskStat />}
        <Stat
          label={`Cadence suggestions accepted (last ${DASHBOARD_DAYS} days)`}
          value={`${count(suggestions.accepted)} of ${count(suggestions.shown)}`}
          detail={`${count(suggestions.declined)} declined; a longer or shorter cadence suggested to shoppers from their skips and early deliveries`}
          testId="stat-cadence-suggestions"
        />
      </div>
    </section>
  );
}

function NetSuite({ netsuite }: { netsuite: Dashboard['netsuite'] }) {
  const canSeeOrders = useCan('orders.view');
  return (
    <Card data-testid="dashboard-netsuite">
      <CardHeader className="pb-3">
        <h2 className="text-base font-semibold leading-tight text-brand-900">NetSuite sync</h2>
      </CardHeader>
      <CardContent>
        <dl className="grid grid-cols-2 gap-x-6 gap-y-3 text-sm sm:grid-cols-4">
          {(['synced', 'pending', 'failed', 'not_configured'] as const).map((status) => (
            <div key={status}>
              <dt className="text-stone-600">{SYNC_STATUS_LABELS[status]}</dt>
              <dd className={cn('text-lg font-semibold tabular-nums', status === 'failed' && netsuite.counts.failed > 0 && 'text-red-700')}>
                {count(netsuite.counts[status] ?? 0)}
              </dd>
            </div>
          ))}
          <div className="col-span-2 sm:col-span-4">
            <dt className="text-stone-600">Oldest pending order</dt>
            <dd>{netsuite.oldestPendingAt ? formatOrderDate(netsuite.oldestPendingAt) : 'None waiting'}</dd>
          </div>
        </dl>
        {canSeeOrders && netsuite.counts.failed > 0 && (
          <Link to="/admin-orders" className="mt-3 inline-block text-sm font-medium text-brand-700 hover:underline">
            See the orders
          </Link>
        )}
      </CardContent>
    </Card>
  );
}

interface Queue {
  name: string;
  /** Not known when the queue service did not answer in time. */
  depth: Dashboard['queues'][string];
}

const column = columnsOf<Queue>();
/** One of a queue's figures; when its depth is not known, the first figure's cell says so across them all. */
const figure = (id: 'waiting' | 'active' | 'delayed' | 'failed', header: string) =>
  column.display({
    id,
    header,
    meta: { className: 'text-right tabular-nums' },
    spanColumns: ({ row }) => (!row.original.depth && id === 'waiting' ? Infinity : 1),
    cell: ({ row: { original: { depth } } }) =>
      depth ? (
        <span className={cn(id === 'failed' && depth.failed > 0 && 'font-semibold text-red-700')}>{count(depth[id])}</span>
      ) : (
        <span className="block text-left text-amber-800">Not known right now (the queue service did not answer in time)</span>
      ),
  });

const QUEUE_COLUMNS = [
  column.display({ id: 'queue', header: 'Queue', meta: { rowHeader: true }, cell: ({ row }) => QUEUE_LABELS[row.original.name] ?? row.original.name }),
  figure('waiting', 'Waiting'),
  figure('active', 'Running'),
  figure('delayed', 'Scheduled'),
  figure('failed', 'Failed'),
  column.display({
    id: 'oldest',
    header: 'Oldest waiting',
    cell: ({ row: { original: queue } }) => (queue.depth?.oldestWaitingAt ? formatOrderDate(queue.depth.oldestWaitingAt) : '—'),
  }),
];

function Queues({ queues }: { queues: Dashboard['queues'] }) {
  return (
    <Card data-testid="dashboard-queues">
      <CardHeader className="pb-3">
        <h2 className="text-base font-semibold leading-tight text-brand-900">Background work</h2>
      </CardHeader>
      <CardContent className="overflow-x-auto" tabIndex={0} role="region" aria-label="Jobs per queue">
        <DataTable
          columns={QUEUE_COLUMNS}
          data={Object.entries(queues).map(([name, depth]) => ({ name, depth }))}
          rowId={(queue) => queue.name}
          look="plain"
          className="min-w-[32rem]"
          caption="Jobs per queue"
          rowProps={({ id }) => ({ 'data-testid': `queue-${id}` })}
        />
      </CardContent>
    </Card>
  );
}

export function DashboardView() {
  const dashboard = useQuery(dashboardQuery);
  if (dashboard.isPending) return <p className="text-stone-600">Loading the dashboard...</p>;
  if (dashboard.isError) {
    return (
      <div className="grid justify-items-start gap-3">
        <p className="text-red-700">{serverMessageOf(dashboard.error) ?? 'The dashboard could not be loaded.'}</p>
        <Button variant="outline" onClick={() => void dashboard.refetch()}>
          Try again
        </Button>
      </div>
    );
  }
  const { data } = dashboard;
  return <DashboardBody data={data} refetch={() => void dashboard.refetch()} fetching={dashboard.isFetching} />;
}

function DashboardBody({ data, refetch, fetching }: { data: Dashboard; refetch: () => void; fetching: boolean }) {
  const canReport = useCan('reports.view');
  return (
    <div className="grid grid-cols-1 gap-8">
      <div className="flex flex-wrap items-center justify-between gap-2 text-sm text-stone-600">
        <span>Figures as of {formatOrderDate(data.generatedAt)}</span>
        <Button variant="outline" size="sm" onClick={refetch} disabled={fetching}>
          <RefreshCw className={cn(fetching && 'animate-spin')} aria-hidden="true" />
          Refresh
        </Button>
      </div>
      <Sales data={data} />
      {canReport && <RangeReports />}
      <Plans plans={data.plans} suggestions={data.cadenceSuggestions} />
      <div className="grid grid-cols-1 gap-4 lg:grid-cols-2 [&>*]:min-w-0">
        <NetSuite netsuite={data.netsuite} />
        <Queues queues={data.queues} />
      </div>
    </div>
  );
}
