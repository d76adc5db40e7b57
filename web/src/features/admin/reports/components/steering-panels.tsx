/**
 * The dashboard's plan and stock panels (issue 23; owners and managers): MRR now and its movement over the
 * chosen range, churn and the save rate; and the products whose stock will not cover a plan's delivery
 * in the next 30 days, with each product's days of cover.
 */
import { MRR_MOVEMENT_LABELS } from '@nh/shared/contracts/admin-reports';
import { formatUtcDay } from '@nh/shared/days';
import { centsToDecimal } from '@nh/shared/money';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { Card, CardContent, CardHeader } from '@/components/ui/card';
import { serverMessageOf } from '@/lib/query-client';
import { formatMoney } from '../../plans/format';
import { useCan } from '../../shell/role-gate';
import { rangeReportQueries, stockCoverQuery } from '../sales-api';

const money = (cents: number) => formatMoney(centsToDecimal(cents));
const dayWords = (day: string) => formatUtcDay(new Date(`${day}T00:00:00.000Z`));
const rate = (percent: number | null) => (percent === null ? 'not known' : `${percent}%`);

export function SubscriptionsPanel({ from, to }: { from: string; to: string }) {
  const q = useQuery(rangeReportQueries.subscriptions(from, to));
  return (
    <Card data-testid="subscriptions-report">
      <CardHeader className="pb-3">
        <h3 className="text-base font-semibold leading-tight text-brand-900">Subscriptions</h3>
      </CardHeader>
      <CardContent className="grid gap-3 text-sm">
        {q.isPending ? (
          <p className="text-stone-600">Loading…</p>
        ) : q.isError ? (
          <p className="text-red-700">{serverMessageOf(q.error) ?? 'This report could not be loaded.'}</p>
        ) : (
          <>
            <p>
              Monthly recurring revenue now: <strong>{money(q.data.mrrNowCents)}</strong> from {q.data.activePlansNow.toLocaleString('en-US')} active plans.
            </p>
            {q.data.movement ? (
              <>
                <p>
                  From {dayWords(q.data.movement.startDay)} ({money(q.data.movement.startMrrCents)}) to {dayWords(q.data.movement.endDay)} (
                  {money(q.data.movement.endMrrCents)}):
                </p>
                <ul className="grid gap-1">
                  {(['new', 'expansion', 'reactivated', 'contraction', 'churned'] as const).map((kind) => (
                    <li key={kind}>
                      {MRR_MOVEMENT_LABELS[kind]}: {q.data.movement![`${kind}Cents`] === 0 ? '$0.00' : `${kind === 'contraction' || kind === 'churned' ? '−' : '+'}${money(q.data.movement![`${kind}Cents`])}`} (
                      {q.data.movement!.plans[kind]} plans)
                    </li>
                  ))}
                </ul>
                <p>
                  Churn: {rate(q.data.movement.planChurnRatePercent)} of plans, {rate(q.data.movement.mrrChurnRatePercent)} of recurring revenue.
                </p>
              </>
            ) : (
              <p className="text-stone-600">
                {q.data.snapshotsFrom
                  ? `Plan history is kept from ${dayWords(q.data.snapshotsFrom)}; choose a range covering two days since then to see how it moved.`
                  : 'Plan history starts with the first daily snapshot; the movement shows from the day after.'}
              </p>
            )}
            <p>
              Cancellations: {q.data.cancellations.total}; plans saved by an offer: {q.data.cancellations.plansSaved}; save rate {rate(q.data.cancellations.saveRatePercent)}.
            </p>
            {q.data.cancellations.byReason.length > 0 && (
              <ul className="grid gap-1 text-stone-700">
                {q.data.cancellations.byReason.map((r) => (
                  <li key={r.reason}>
                    {r.reason}: {r.count}
                  </li>
                ))}
              </ul>
            )}
          </>
        )}
      </CardContent>
    </Card>
  );
}

/** The at-risk list of the plans whose next delivery the stock does not cover (the same walk, issue 23). */
const STOCK_SHORT_PLANS = '/admin/subscriptions?tab=at-risk&reason=stock-short';

export function StockCoverPanel() {
  const q = useQuery(stockCoverQuery);
  const canSeePlans = useCan('subscriptions.view');
  const short = q.data?.products.filter((p) => p.runsShortOn) ?? [];
  return (
    <Card data-testid="stock-cover">
      <CardHeader className="pb-3">
        <h3 className="text-base font-semibold leading-tight text-brand-900">Stock cover (next 30 days)</h3>
      </CardHeader>
      <CardContent className="grid gap-3 text-sm">
        {q.isPending ? (
          <p className="text-stone-600">Loading…</p>
        ) : q.isError ? (
          <p className="text-red-700">{serverMessageOf(q.error) ?? 'This report could not be loaded.'}</p>
        ) : (
          <>
            {short.length === 0 ? (
              <p>Every plan delivery due in the next 30 days is covered by the stock.</p>
            ) : (
              <>
                <ul className="grid gap-1" aria-label="Running short">
                  {short.map((p) => (
                    <li key={p.productId} className="text-amber-800">
                      <strong>{p.name}</strong> runs short on {dayWords(p.runsShortOn!)}: {p.inStock} in stock, {p.plansShort} plan deliveries from then on not covered.
                    </li>
                  ))}
                </ul>
                {canSeePlans && (
                  <Link to={STOCK_SHORT_PLANS} className="text-brand-700 underline underline-offset-2">
                    The plans these deliveries belong to (at-risk list)
                  </Link>
                )}
              </>
            )}
            <table className="w-full text-left text-sm">
              <caption className="sr-only">Days of stock per product</caption>
              <thead>
                <tr className="border-b">
                  <th scope="col" className="py-1 pr-3">Product</th>
                  <th scope="col" className="py-1 pr-3 text-right">In stock</th>
                  <th scope="col" className="py-1 pr-3 text-right">Needed in 30 days</th>
                  <th scope="col" className="py-1 text-right">Days of cover</th>
                </tr>
              </thead>
              <tbody>
                {q.data.products.slice(0, 10).map((p) => (
                  <tr key={p.productId} className="border-b last:border-0">
                    <th scope="row" className="py-1 pr-3 font-normal">{p.name}</th>
                    <td className="py-1 pr-3 text-right tabular-nums">{p.inStock}</td>
                    <td className="py-1 pr-3 text-right tabular-nums">{p.renewalUnits + p.addOnUnits + p.soldLast30Days}</td>
                    <td className="py-1 text-right tabular-nums">{p.daysOfCover === null ? 'Nothing needed' : `${p.daysOfCover} days`}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </>
        )}
      </CardContent>
    </Card>
  );
}
