/**
 * The edit screen's Inventory panel: the stock now, an adjustment by a signed number with a required
 * reason (POST /api/admin/products/{id}/inventory), and the log of every change (who, when, why).
 */
import { formatOrderDate } from '@nh/shared/contracts/admin';
import { ADMIN_PRODUCT_MESSAGES, INVENTORY_REASON_MAX_LENGTH, inventoryAdjustmentRequestSchema } from '@nh/shared/contracts/admin-products';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Loader2 } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { toast } from '@/components/ui/use-toast';
import { serverMessageOf } from '@/lib/query-client';
import { cn } from '@/lib/utils';
import { adjustInventory, catalogKeys, inventoryLog } from './api';

type Problems = Partial<Record<'delta' | 'reason' | 'server', string>>;

/** "+5", "−3" (a real minus sign). */
export const signed = (n: number): string => (n > 0 ? `+${n.toLocaleString('en-US')}` : `−${Math.abs(n).toLocaleString('en-US')}`);

export function InventoryPanel({ productId, productName }: { productId: number; productName: string }) {
  const ids = { delta: useId(), reason: useId() };
  const queryClient = useQueryClient();
  const log = useQuery({ queryKey: catalogKeys.inventory(productId), queryFn: () => inventoryLog(productId), staleTime: 0 });
  const [delta, setDelta] = useState('');
  const [reason, setReason] = useState('');
  const [problems, setProblems] = useState<Problems>({});
  const adjust = useMutation({
    mutationFn: (input: { delta: number; reason: string }) => adjustInventory(productId, input),
    onSuccess: (updated) => {
      toast({
        title: ADMIN_PRODUCT_MESSAGES.adjusted,
        description: `${productName}: ${updated.inventory.toLocaleString('en-US')} in stock.`,
      });
      queryClient.setQueryData(catalogKeys.inventory(productId), updated);
      void queryClient.invalidateQueries({ queryKey: ['admin', 'products'], predicate: (query) => query.queryKey[2] !== 'inventory' });
      setDelta('');
      setReason('');
      setProblems({});
    },
    onError: (error) => setProblems({ server: serverMessageOf(error) ?? `The stock could not be changed (${error.message}).` }),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    if (adjust.isPending) return;
    const typed = delta.trim();
    const checked = inventoryAdjustmentRequestSchema.safeParse({ delta: /^[+-]?\d+$/.test(typed) ? Number(typed) : Number.NaN, reason });
    if (!checked.success) {
      const found: Problems = {};
      for (const issue of checked.error.issues) {
        const field = issue.path[0] === 'delta' ? 'delta' : 'reason';
        found[field] ??= issue.message;
      }
      return setProblems(found);
    }
    const stock = log.data?.inventory;
    if (stock !== undefined && stock + checked.data.delta < 0) return setProblems({ delta: ADMIN_PRODUCT_MESSAGES.belowZero });
    setProblems({});
    adjust.mutate(checked.data);
  }

  return (
    <Card data-testid="inventory-panel">
      <CardHeader>
        <CardTitle>Inventory</CardTitle>
      </CardHeader>
      <CardContent className="grid grid-cols-1 gap-6">
        {log.isPending ? (
          <p className="text-stone-600">Loading stock...</p>
        ) : log.isError ? (
          <p className="text-red-700">{serverMessageOf(log.error) ?? 'Failed to load the stock.'}</p>
        ) : (
          <>
            <p className="text-sm text-stone-600">
              In stock now:{' '}
              <span className="text-2xl font-semibold tabular-nums text-brand-900" data-testid="stock-now">
                {log.data.inventory.toLocaleString('en-US')}
              </span>
            </p>
            <form
              onSubmit={submit}
              noValidate
              className="grid grid-cols-1 gap-4 sm:grid-cols-[10rem_minmax(0,1fr)_auto] sm:items-start"
              aria-label="Adjust stock"
            >
              <div className="space-y-1.5">
                <Label htmlFor={ids.delta}>Change</Label>
                <Input
                  id={ids.delta}
                  inputMode="numeric"
                  placeholder="12 or -3"
                  value={delta}
                  onChange={(e) => setDelta(e.target.value)}
                  aria-invalid={problems.delta ? true : undefined}
                  aria-describedby={`${ids.delta}-hint${problems.delta ? ` ${ids.delta}-error` : ''}`}
                />
                <p id={`${ids.delta}-hint`} className="text-xs text-stone-500">
                  Negative takes stock away
                </p>
                {problems.delta && (
                  <p id={`${ids.delta}-error`} className="text-sm text-red-600" role="alert">
                    {problems.delta}
                  </p>
                )}
              </div>
              <div className="space-y-1.5">
                <Label htmlFor={ids.reason}>Reason</Label>
                <Input
                  id={ids.reason}
                  maxLength={INVENTORY_REASON_MAX_LENGTH}
                  placeholder="Counted in the warehouse"
                  value={reason}
                  onChange={(e) => setReason(e.target.value)}
                  aria-invalid={problems.reason ? true : undefined}
                  aria-describedby={problems.reason ? `${ids.reason}-error` : undefined}
                />
                {problems.reason && (
                  <p id={`${ids.reason}-error`} className="text-sm text-red-600" role="alert">
                    {problems.reason}
                  </p>
                )}
              </div>
              <Button type="submit" className="sm:mt-6" disabled={adjust.isPending}>
                {adjust.isPending && <Loader2 className="animate-spin" aria-hidden="true" />}
                Adjust stock
              </Button>
              {problems.server && (
                <p className="text-sm text-red-600 sm:col-span-3" role="alert" data-testid="inventory-problem">
                  {problems.server}
                </p>
              )}
            </form>
            <div className="overflow-x-auto" tabIndex={0} role="region" aria-label="Stock changes">
              {log.data.adjustments.length === 0 ? (
                <p className="text-sm text-stone-600">No stock changes recorded yet.</p>
              ) : (
                <table className="w-full min-w-[36rem] text-left text-sm">
                  <caption className="mb-2 text-left font-semibold text-brand-900">
                    Stock changes, newest first{log.data.adjustments.length >= 100 ? ' (the latest 100)' : ''}
                  </caption>
                  <thead className="border-b border-stone-200 text-xs uppercase tracking-wide text-stone-600">
                    <tr>
                      <th scope="col" className="py-2 pr-4">
                        When
                      </th>
                      <th scope="col" className="py-2 pr-4 text-right">
                        Change
                      </th>
                      <th scope="col" className="py-2 pr-4 text-right">
                        Stock after
                      </th>
                      <th scope="col" className="py-2 pr-4">
                        Reason
                      </th>
                      <th scope="col" className="py-2">
                        Staff
                      </th>
                    </tr>
                  </thead>
                  <tbody className="divide-y divide-stone-100 align-top">
                    {log.data.adjustments.map((entry) => (
                      <tr key={entry.id} data-testid={`adjustment-${entry.id}`}>
                        <td className="whitespace-nowrap py-2 pr-4">{formatOrderDate(entry.at)}</td>
                        <td
                          className={cn(
                            'py-2 pr-4 text-right font-medium tabular-nums',
                            entry.delta < 0 ? 'text-red-800' : 'text-green-800',
                          )}
                        >
                          {signed(entry.delta)}
                        </td>
                        <td className="py-2 pr-4 text-right tabular-nums">{entry.inventoryAfter.toLocaleString('en-US')}</td>
                        <td className="break-words py-2 pr-4">{entry.reason}</td>
                        <td className="break-all py-2">{entry.staffEmail}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
            </div>
          </>
        )}
      </CardContent>
    </Card>
  );
}
