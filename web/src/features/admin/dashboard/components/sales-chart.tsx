/**
 * The dashboard's 30-day chart: one bar per UTC day (revenue or orders), drawn as an SVG image with a
 * title and a one-sentence summary for screen readers, a tooltip per bar, and every figure in a table
 * below it ("Daily figures") for anyone who cannot read the bars.
 */
import { formatPrice } from '@nh/shared';
import type { Dashboard } from '@nh/shared/contracts/admin-dashboard';
import { useId } from 'react';
import { formatDay, formatShortDay } from '../../plans/format';
import { columnsOf, DataTable } from '../../ui/data-table';

export type ChartMetric = 'revenue' | 'orders';
type Day = Dashboard['daily'][number];

const WIDTH = 640;
const HEIGHT = 220;
const PAD = { top: 12, right: 8, bottom: 28, left: 56 };
const PLOT_W = WIDTH - PAD.left - PAD.right;
const PLOT_H = HEIGHT - PAD.top - PAD.bottom;

const compactMoney = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', notation: 'compact', maximumFractionDigits: 1 });

const valueOf = (day: Day, metric: ChartMetric) => (metric === 'revenue' ? Number(day.revenue) || 0 : day.orders);

/** A round top for the axis: 1, 2, 2.5 or 5 times a power of ten, at least the highest bar (1 when all are 0). */
export function niceTop(max: number): number {
  if (max <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(max));
  const step = [1, 2, 2.5, 5, 10].find((s) => s * power >= max) ?? 10;
  return step * power;
}

const axisLabel = (value: number, metric: ChartMetric) =>
  metric === 'revenue' ? compactMoney.format(value) : value.toLocaleString('en-US');
const fullValue = (day: Day, metric: ChartMetric) =>
  metric === 'revenue' ? formatPrice(day.revenue) : `${day.orders.toLocaleString('en-US')} ${day.orders === 1 ? 'order' : 'orders'}`;

/** "Revenue over the last 30 days: $1,234.00 in all; highest $200.00 on Mar 5, 2026." */
export function chartSummary(days: readonly Day[], metric: ChartMetric): string {
  if (days.length === 0) return 'No days to show.';
  const total = days.reduce((n, d) => n + valueOf(d, metric), 0);
  const best = days.reduce((a, b) => (valueOf(b, metric) > valueOf(a, metric) ? b : a));
  const what = metric === 'revenue' ? 'Revenue' : 'Orders';
  const totalWords = metric === 'revenue' ? formatPrice(total.toFixed(2)) : total.toLocaleString('en-US');
  if (total === 0) return `${what} over the last ${days.length} days: none yet.`;
  return `${what} over the last ${days.length} days: ${totalWords} in all; highest ${fullValue(best, metric)} on ${formatDay(best.day)}.`;
}

export function SalesChart({ days, metric }: { days: readonly Day[]; metric: ChartMetric }) {
  const titleId = useId();
  const descId = useId();
  const top = niceTop(Math.max(0, ...days.map((d) => valueOf(d, metric))));
  const slot = days.length > 0 ? PLOT_W / days.length : PLOT_W;
  const barWidth = Math.max(1, slot * 0.7);
  const y = (value: number) => PAD.top + PLOT_H - (value / top) * PLOT_H;
  const ticks = [0, top / 2, top];
  // A label every fifth day, counted back from today (the last bar), so today is always named.
  const labelled = (index: number) => (days.length - 1 - index) % 5 === 0;

  return (
    <svg
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      className="h-auto w-full"
      role="img"
      aria-labelledby={`${titleId} ${descId}`}
      data-testid="sales-chart"
    >
      <title id={titleId}>{metric === 'revenue' ? 'Revenue per day, last 30 days' : 'Orders per day, last 30 days'}</title>
      <desc id={descId}>{chartSummary(days, metric)}</desc>
      {ticks.map((tick) => (
        <g key={tick}>
          <line x1={PAD.left} x2={WIDTH - PAD.right} y1={y(tick)} y2={y(tick)} className="stroke-stone-200" strokeWidth={1} />
          <text x={PAD.left - 6} y={y(tick)} textAnchor="end" dominantBaseline="middle" className="fill-stone-600 text-[11px]">
            {axisLabel(tick, metric)}
          </text>
        </g>
      ))}
      {days.map((day, index) => {
        const value = valueOf(day, metric);
        const x = PAD.left + index * slot + (slot - barWidth) / 2;
        const height = PLOT_H - (y(value) - PAD.top);
        const today = index === days.length - 1;
        return (
          <g key={day.day} data-testid={`chart-day-${day.day}`}>
            <rect
              x={x}
              y={y(value)}
              width={barWidth}
              height={Math.max(0, height)}
              rx={2}
              className={today ? 'fill-brand-900' : 'fill-brand-500'}
            >
              <title>{`${formatDay(day.day)}: ${formatPrice(day.revenue)}, ${day.orders} ${day.orders === 1 ? 'order' : 'orders'}`}</title>
            </rect>
            {labelled(index) && (
              <text x={x + barWidth / 2} y={HEIGHT - 8} textAnchor="middle" className="fill-stone-600 text-[11px]">
                {today ? 'Today' : formatShortDay(day.day)}
              </text>
            )}
          </g>
        );
      })}
      <line x1={PAD.left} x2={WIDTH - PAD.right} y1={y(0)} y2={y(0)} className="stroke-stone-400" strokeWidth={1} />
    </svg>
  );
}

const column = columnsOf<Day>();

const DAILY_COLUMNS = [
  column.display({ id: 'day', header: 'Day', meta: { rowHeader: true }, cell: ({ row }) => formatDay(row.original.day) }),
  column.display({ id: 'orders', header: 'Orders', meta: { className: 'text-right tabular-nums' }, cell: ({ row }) => row.original.orders.toLocaleString('en-US') }),
  column.display({ id: 'revenue', header: 'Revenue', meta: { className: 'text-right tabular-nums' }, cell: ({ row }) => formatPrice(row.original.revenue) }),
];

/** Every day's orders and revenue, newest first (the chart's figures as text). */
export function DailyTable({ days }: { days: readonly Day[] }) {
  return (
    <DataTable
      columns={DAILY_COLUMNS}
      data={[...days].reverse()}
      rowId={(day) => day.day}
      look="plain"
      caption="Orders and revenue per day, newest first"
    />
  );
}
