/**
 * The dashboard's claims card (issue 23): claims over the dashboard's date range by reason, and the
 * products claimed most with their claim rate (units claimed per unit sold). The dashboard owns the range.
 */
import { useQuery } from '@tanstack/react-query';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { serverMessageOf } from '@/lib/query-client';
import { claimRatesQuery } from '../api';

const percent = (rate: number) => `${(rate * 100).toFixed(1)}%`;

export function ClaimRatesCard({ from, to }: { from: string; to: string }) {
  const rates = useQuery(claimRatesQuery(from, to));
  return (
    <Card>
      <CardHeader>
        <CardTitle>Damage claims</CardTitle>
      </CardHeader>
      <CardContent>
        {rates.isPending ? (
          <p className="text-sm text-stone-500">Loading…</p>
        ) : rates.isError ? (
          <p className="text-sm text-red-700">{serverMessageOf(rates.error) ?? 'The claim figures could not be loaded.'}</p>
        ) : rates.data.claims === 0 ? (
          <p className="text-sm text-stone-500">No claims in this period.</p>
        ) : (
          <div className="grid gap-4 text-sm">
            <ul aria-label="Claims by reason">
              {rates.data.byReason.map((r) => (
                <li key={r.reason} className="flex justify-between">
                  <span>{r.label}</span>
                  <span className="tabular-nums">{r.claims}</span>
                </li>
              ))}
            </ul>
            <table className="w-full text-left">
              <caption className="sr-only">Claim rate by product</caption>
              <thead>
                <tr className="border-b">
                  <th scope="col" className="py-1 pr-2">Product</th>
                  <th scope="col" className="py-1 pr-2 text-right">Claimed / sold</th>
                  <th scope="col" className="py-1 text-right">Rate</th>
                </tr>
              </thead>
              <tbody>
                {rates.data.byProduct.slice(0, 5).map((p) => (
                  <tr key={`${p.productId}-${p.productName}`} className="border-b">
                    <th scope="row" className="py-1 pr-2 font-normal">{p.productName}</th>
                    <td className="py-1 pr-2 text-right tabular-nums">
                      {p.unitsClaimed} / {p.unitsSold}
                    </td>
                    <td className="py-1 text-right tabular-nums">{p.unitsSold > 0 ? percent(p.rate) : '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </CardContent>
    </Card>
  );
}
