/**
 * The edit screen's Inventory panel: the stock now, an adjustment by a signed number with a required
 * reason (POST /api/admin/products/{id}/inventory), and the log of every change (who, when, why).
 */
import { formatOrderDate } from '@nh/shared/contracts/admin';
import { ADMIN_PRODUCT_MESSAGES, INVENTORY_REASON_MAX_LENGTH, inventoryAdjustmentRequestSchema, type InventoryLog } from '@nh/shared/contracts/admin-products';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Loader2 } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { toast } from '@/components/ui/use-toast';
import { serverMessageOf } from '@/lib/query-client';
import { columnsOf, DataTable } from '../../ui/data-table';
import { adjustInventory, isInventoryLog, productQueries } from '../api';

type Problems = Partial<Record<'delta' | 'reason' | 'server', string>>;

/** "+5", "−3" (a real minus sign). */
export const signed = (n: number): string => (n > 0 ? `+${n.toLocaleString('en-US')}` : `−${Math.abs(n).toLocaleString('en-US')}`);

const column = columnsOf<InventoryLog['adjustments'][number]>();

const ADJUSTMENT_COLUMNS = [
  column.display({ id: 'when', header: 'When', meta: { className: 'whitespace-nowrap' }, cell: ({ row }) => formatOrderDate(row.original.at) }),
  column.display({
    id: 'change',
    header: 'Change',
    meta: { className: 'text-right font-medium tabular-nums' },
    cell: ({ row: { original: entry } }) => <span className={entry.delta < 0 ? 'text-red-800' : 'text-green-800'}>{signed(entry.delta)}</span>,
  }),
  column.display({
    id: 'after',
    header: 'Stock after',
    meta: { className: 'text-right tabular-nums' },
    cell: ({ row }) => row.original.inventoryAfter.toLocaleString('en-US'),
  }),
  column.display({ id: 'reason', header: 'Reason', meta: { className: 'break-words' }, cell: ({ row }) => row.original.reason }),
  column.display({ id: 'staff', header: 'Staff', meta: { className: 'break-all' }, cell: ({ row }) => row.original.staffEmail }),
];

export function InventoryPanel({ productId, productName }: { productId: number; productName: string }) {
  const ids = { delta: useId(), reason: useId() };
  const queryClient = useQueryClient();
  const log = useQuery(productQueries.inventory(productId));
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
      queryClient.setQueryData(productQueries.inventory(productId).queryKey, updated);
      void queryClient.invalidateQueries({ queryKey: productQueries.all, predicate: (query) => !isInventoryLog(query) });
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
                <DataTable
                  columns={ADJUSTMENT_COLUMNS}
                  data={log.data.adjustments}
                  rowId={(entry) => String(entry.id)}
                  look="plain"
                  className="min-w-[36rem]"
                  caption={`Stock changes, newest first${log.data.adjustments.length >= 100 ? ' (the latest 100)' : ''}`}
                  showCaption
                  rowProps={({ id }) => ({ 'data-testid': `adjustment-${id}` })}
                />
              )}
            </div>
          </>
        )}
      </CardContent>
    </Card>
  );
}
