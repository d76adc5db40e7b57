import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { formatUtcDay } from '@nh/shared/days';
import { Input } from '@/components/ui/input';
import { usePageMeta } from '@/lib/use-page-meta';
import { AdminPage } from '../../shell/admin-page';
import { cancellationReportQuery } from '../api';

const dayOf = (date: Date) => date.toISOString().slice(0, 10);
const daysAgo = (n: number) => dayOf(new Date(Date.now() - n * 86_400_000));
const dayWords = (day: string) => formatUtcDay(new Date(`${day}T00:00:00.000Z`));

/** The report's table: one row per week, reasons in words, days kept rounded. */
function CancellationTable({ from, to }: { from: string; to: string }) {
  const report = useQuery(cancellationReportQuery(from, to));
  if (report.isPending) return <p className="text-sm text-muted-foreground">Loading the report…</p>;
  if (report.isError) return <p className="text-sm text-red-700">{report.error.message || 'The report could not be loaded.'}</p>;
  if (report.data.weeks.length === 0) return <p className="text-sm text-muted-foreground">No cancellations or save offers from {dayWords(from)} to {dayWords(to)}.</p>;
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">Cancellations by week</caption>
        <thead>
          <tr className="border-b">
            <th scope="col" className="py-2 pr-4">Week</th>
            <th scope="col" className="py-2 pr-4">Cancellations by reason</th>
            <th scope="col" className="py-2 pr-4 text-right">Offers shown</th>
            <th scope="col" className="py-2 pr-4 text-right">Offers accepted</th>
            <th scope="col" className="py-2 pr-4 text-right">Plans saved</th>
            <th scope="col" className="py-2 text-right">Average days kept</th>
          </tr>
        </thead>
        <tbody>
          {report.data.weeks.map((week) => (
            <tr key={week.weekStart} className="border-b align-top">
              <th scope="row" className="py-2 pr-4 font-medium">{week.weekLabel}</th>
              <td className="py-2 pr-4">
                {week.cancellations.length === 0 ? 'None' : (
                  <ul>
                    {week.cancellations.map((c) => (
                      <li key={c.reason}>
                        {c.reason}: {c.count}
                      </li>
                    ))}
                  </ul>
                )}
              </td>
              <td className="py-2 pr-4 text-right">{week.offersShown}</td>
              <td className="py-2 pr-4 text-right">{week.offersAccepted}</td>
              <td className="py-2 pr-4 text-right">{week.plansSaved}</td>
              <td className="py-2 text-right">{week.averageDaysKept === null ? '–' : `${Math.round(week.averageDaysKept)} days`}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** /admin/reports/cancellations (owners and managers): why plans are cancelled and what the save offers kept, by week. */
export default function CancellationsReportPage() {
  usePageMeta({ title: 'Cancellations' });
  const [from, setFrom] = useState(daysAgo(83));
  const [to, setTo] = useState(dayOf(new Date()));
  return (
    <AdminPage title="Cancellations">
      <div className="grid grid-cols-1 gap-4">
        <div className="flex flex-wrap items-end gap-4 text-sm">
          <label className="grid gap-1">
            From
            <Input type="date" value={from} max={to} onChange={(event) => event.target.value && setFrom(event.target.value)} />
          </label>
          <label className="grid gap-1">
            To
            <Input type="date" value={to} min={from} onChange={(event) => event.target.value && setTo(event.target.value)} />
          </label>
        </div>
        <CancellationTable from={from} to={to} />
      </div>
    </AdminPage>
  );
}
