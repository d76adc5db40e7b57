/**
 * The dashboard's range reports (issue 23; owners and managers): a date range (the last 30 days unless
 * chosen, kept in the URL) and the previous period of the same length beside each figure: sales, orders,
 * average order, units, refunds and net revenue; new vs returning customers; subscription vs one-time
 * revenue; the top products; damage claims by reason and product (the claims report needs the same
 * `reports.view` that shows this section). Days are UTC, as the server counts them.
 */
import {
  addDays,
  previousRange,
  REPORT_DEFAULT_DAYS,
  reportRangeSchema,
  type CustomerFigures,
  type RevenueMixFigures,
  type SalesFigures,
} from '@nh/shared/contracts/admin-reports';
import { centsToDecimal } from '@nh/shared/money';
import { formatUtcDay } from '@nh/shared/days';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Card, CardContent, CardHeader } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { serverMessageOf } from '@/lib/query-client';
import { formatMoney } from '../../plans/format';
import { ClaimRatesCard } from '../../claims/components/claim-rates-card';
import { rangeReportQueries } from '../sales-api';
import { StockCoverPanel, SubscriptionsPanel } from './steering-panels';

const today = () => new Date().toISOString().slice(0, 10);
const dayWords = (day: string) => formatUtcDay(new Date(`${day}T00:00:00.000Z`));
const count = (n: number) => n.toLocaleString('en-US');
const money = (cents: number) => formatMoney(centsToDecimal(cents));

/** "up 12%", "down 5%", "no change", "new" (nothing the period before). */
export function changeWords(current: number, previous: number): string {
  if (current === previous) return 'no change';
  if (previous === 0) return 'new this period';
  const percent = Math.round(((current - previous) / Math.abs(previous)) * 100);
  if (percent === 0) return current > previous ? 'up less than 1%' : 'down less than 1%';
  return percent > 0 ? `up ${percent}%` : `down ${-percent}%`;
}

function Figure({ label, current, previous, format, testId }: { label: string; current: number; previous: number; format: (n: number) => string; testId: string }) {
  return (
    <div className="min-w-0 rounded-xl border border-stone-200 bg-white p-4" data-testid={testId}>
      <dl>
        <dt className="text-sm text-stone-600">{label}</dt>
        <dd className="mt-1 break-words text-2xl font-semibold tabular-nums text-brand-900">{format(current)}</dd>
        <dd className="mt-0.5 text-xs text-stone-500">
          Previous period {format(previous)} ({changeWords(current, previous)})
        </dd>
      </dl>
    </div>
  );
}

function Part({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card>
      <CardHeader className="pb-3">
        <h3 className="text-base font-semibold leading-tight text-brand-900">{title}</h3>
      </CardHeader>
      <CardContent>{children}</CardContent>
    </Card>
  );
}

function Loading<T>({ query, children }: { query: { isPending: boolean; isError: boolean; error: unknown; data?: T }; children: (data: T) => ReactNode }) {
  if (query.isPending) return <p className="text-sm text-stone-600">Loading…</p>;
  if (query.isError || query.data === undefined) return <p className="text-sm text-red-700">{serverMessageOf(query.error) ?? 'This report could not be loaded.'}</p>;
  return <>{children(query.data)}</>;
}

const SALES: Array<[keyof SalesFigures, string, (n: number) => string]> = [
  ['salesCents', 'Sales', money],
  ['orders', 'Orders', count],
  ['averageOrderCents', 'Average order', money],
  ['units', 'Units sold', count],
  ['refundsCents', 'Refunds', money],
  ['netRevenueCents', 'Net revenue', money],
];

function SalesFiguresView({ from, to }: { from: string; to: string }) {
  const sales = useQuery(rangeReportQueries.sales(from, to));
  return (
    <Loading query={sales}>
      {(report) => (
        <div className="grid grid-cols-2 gap-3 lg:grid-cols-3">
          {SALES.map(([key, label, format]) => (
            <Figure key={key} label={label} current={report.current[key]} previous={report.previous[key]} format={format} testId={`range-${key}`} />
          ))}
        </div>
      )}
    </Loading>
  );
}

function Split({ rows }: { rows: Array<{ label: string; current: string; previous: string }> }) {
  return (
    <table className="w-full text-left text-sm">
      <thead>
        <tr className="border-b">
          <th scope="col" className="py-1 pr-3 font-medium text-stone-600"></th>
          <th scope="col" className="py-1 pr-3 text-right font-medium text-stone-600">This period</th>
          <th scope="col" className="py-1 text-right font-medium text-stone-600">Previous period</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.label} className="border-b last:border-0">
            <th scope="row" className="py-1 pr-3 font-normal">{r.label}</th>
            <td className="py-1 pr-3 text-right tabular-nums">{r.current}</td>
            <td className="py-1 text-right tabular-nums text-stone-600">{r.previous}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

const customerRows = (c: CustomerFigures, p: CustomerFigures) => [
  { label: 'New customers', current: count(c.newCustomers), previous: count(p.newCustomers) },
  { label: 'Revenue from new customers', current: money(c.newRevenueCents), previous: money(p.newRevenueCents) },
  { label: 'Returning customers', current: count(c.returningCustomers), previous: count(p.returningCustomers) },
  { label: 'Revenue from returning customers', current: money(c.returningRevenueCents), previous: money(p.returningRevenueCents) },
];
const mixRows = (c: RevenueMixFigures, p: RevenueMixFigures) => [
  { label: 'Subscribe & Save orders', current: count(c.subscriptionOrders), previous: count(p.subscriptionOrders) },
  { label: 'Subscribe & Save revenue', current: money(c.subscriptionRevenueCents), previous: money(p.subscriptionRevenueCents) },
  { label: 'One-time orders', current: count(c.oneTimeOrders), previous: count(p.oneTimeOrders) },
  { label: 'One-time revenue', current: money(c.oneTimeRevenueCents), previous: money(p.oneTimeRevenueCents) },
];

function Customers({ from, to }: { from: string; to: string }) {
  const q = useQuery(rangeReportQueries.customers(from, to));
  return (
    <Part title="New and returning customers">
      <Loading query={q}>{(r) => <Split rows={customerRows(r.current, r.previous)} />}</Loading>
    </Part>
  );
}

function RevenueMix({ from, to }: { from: string; to: string }) {
  const q = useQuery(rangeReportQueries.revenueMix(from, to));
  return (
    <Part title="Subscriptions and one-time orders">
      <Loading query={q}>{(r) => <Split rows={mixRows(r.current, r.previous)} />}</Loading>
    </Part>
  );
}

function TopProducts({ from, to }: { from: string; to: string }) {
  const q = useQuery(rangeReportQueries.topProducts(from, to));
  return (
    <Part title="Top products">
      <Loading query={q}>
        {(r) =>
          r.products.length === 0 ? (
            <p className="text-sm text-stone-600">No products sold in this period.</p>
          ) : (
            <table className="w-full text-left text-sm" data-testid="top-products">
              <caption className="sr-only">Top products by units sold</caption>
              <thead>
                <tr className="border-b">
                  <th scope="col" className="py-1 pr-3">Product</th>
                  <th scope="col" className="py-1 pr-3 text-right">Units</th>
                  <th scope="col" className="py-1 pr-3 text-right">Sales</th>
                  <th scope="col" className="py-1 text-right">Units, previous period</th>
                </tr>
              </thead>
              <tbody>
                {r.products.map((p) => (
                  <tr key={p.productId} className="border-b last:border-0">
                    <th scope="row" className="py-1 pr-3 font-normal">{p.name}</th>
                    <td className="py-1 pr-3 text-right tabular-nums">{count(p.units)}</td>
                    <td className="py-1 pr-3 text-right tabular-nums">{money(p.salesCents)}</td>
                    <td className="py-1 text-right tabular-nums text-stone-600">{count(p.previousUnits)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )
        }
      </Loading>
    </Part>
  );
}

/** The range from the URL (`from`, `to`), else the last 30 days ending today. */
export function useReportRange() {
  const [params, setParams] = useSearchParams();
  const to = params.get('to') ?? today();
  const from = params.get('from') ?? addDays(to, -(REPORT_DEFAULT_DAYS - 1));
  const set = (next: { from?: string; to?: string }) =>
    setParams(
      (current) => {
        const out = new URLSearchParams(current);
        out.set('from', next.from ?? from);
        out.set('to', next.to ?? to);
        return out;
      },
      { replace: true },
    );
  return { from, to, set };
}

export function RangeReports() {
  const { from, to, set } = useReportRange();
  const checked = reportRangeSchema.safeParse({ from, to });
  const previous = checked.success ? previousRange(checked.data) : null;
  return (
    <section aria-labelledby="dashboard-range" className="grid grid-cols-1 gap-4" data-testid="range-reports">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <h2 id="dashboard-range" className="text-xl font-semibold text-brand-900">
          Sales over a date range
        </h2>
        <div className="flex flex-wrap items-end gap-3 text-sm">
          <label className="grid gap-1">
            From
            <Input type="date" value={from} max={to} onChange={(event) => event.target.value && set({ from: event.target.value })} />
          </label>
          <label className="grid gap-1">
            To
            <Input type="date" value={to} min={from} onChange={(event) => event.target.value && set({ to: event.target.value })} />
          </label>
        </div>
      </div>
      {checked.success && previous ? (
        <>
          <p className="text-sm text-stone-600">
            {dayWords(from)} to {dayWords(to)} (UTC days), compared with {dayWords(previous.from)} to {dayWords(previous.to)}.
          </p>
          <SalesFiguresView from={from} to={to} />
          <div className="grid grid-cols-1 gap-4 lg:grid-cols-3 [&>*]:min-w-0">
            <TopProducts from={from} to={to} />
            <Customers from={from} to={to} />
            <RevenueMix from={from} to={to} />
          </div>
          <div className="grid grid-cols-1 gap-4 lg:grid-cols-2 [&>*]:min-w-0">
            <SubscriptionsPanel from={from} to={to} />
            <StockCoverPanel />
          </div>
          <div className="grid grid-cols-1 gap-4 lg:grid-cols-2 [&>*]:min-w-0" data-testid="claim-rates">
            <ClaimRatesCard from={from} to={to} />
          </div>
        </>
      ) : (
        <p className="text-sm text-red-700" role="alert">
          {checked.error?.issues[0]?.message}
        </p>
      )}
    </section>
  );
}
