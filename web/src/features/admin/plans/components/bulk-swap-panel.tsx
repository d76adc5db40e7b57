/**
 * Bulk swap on the Subscriptions screen (issue 21; managers and owners): choose the product (and size)
 * swapped away and the one swapped in, say why, see how many plans and which customers would change (a
 * dry run), then start the swap. The runs below show their progress (done of total, changed, skipped,
 * failed), who started each and when, in words. The server decides every refusal and every plan.
 */
import { formatOrderDate } from '@nh/shared/contracts/admin';
import { ADMIN_SUBSCRIPTION_STATUS_LABELS } from '@nh/shared/contracts/admin-subscriptions';
import { BULK_SWAP_MESSAGES, BULK_SWAP_OUTCOME_LABELS, BULK_SWAP_RUN_STATUS_LABELS, type BulkSwapDryRun, type BulkSwapOutcome, type BulkSwapRun } from '@nh/shared/contracts/bulk-swap';
import type { Product } from '@nh/shared/contracts/catalog';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Loader2 } from 'lucide-react';
import { useId, useState } from 'react';
import { Link } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { toast } from '@/components/ui/use-toast';
import { serverMessageOf } from '@/lib/query-client';
import { bulkQueries, bulkSwap } from '../bulk-api';

const EVERY_SIZE = '__every__';

interface Choice {
  productId: string;
  size: string;
}

function ProductChoice({ label, products, value, onChange, everySize }: { label: string; products: Product[]; value: Choice; onChange: (next: Choice) => void; everySize: boolean }) {
  const productId = useId();
  const sizeId = useId();
  const product = products.find((p) => String(p.id) === value.productId);
  return (
    <fieldset className="grid gap-3 sm:grid-cols-2">
      <legend className="sr-only">{label}</legend>
      <div className="space-y-1.5">
        <Label htmlFor={productId}>{label}</Label>
        <Select value={value.productId} onValueChange={(next) => onChange({ productId: next, size: everySize ? EVERY_SIZE : '' })}>
          <SelectTrigger id={productId}>
            <SelectValue placeholder="Choose a product" />
          </SelectTrigger>
          <SelectContent>
            {products.map((p) => (
              <SelectItem key={p.id} value={String(p.id)}>
                {p.name}
                {p.status === 'active' ? '' : ' (not on sale)'}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </div>
      {product && product.variants.length > 0 && (
        <div className="space-y-1.5">
          <Label htmlFor={sizeId}>{label}: size</Label>
          <Select value={value.size} onValueChange={(size) => onChange({ ...value, size })}>
            <SelectTrigger id={sizeId}>
              <SelectValue placeholder="Choose a size" />
            </SelectTrigger>
            <SelectContent>
              {everySize && <SelectItem value={EVERY_SIZE}>Every size</SelectItem>}
              {product.variants.map((v) => (
                <SelectItem key={v.sku} value={v.sku}>
                  {v.label}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
      )}
    </fieldset>
  );
}

const sizeOf = (choice: Choice) => (choice.size && choice.size !== EVERY_SIZE ? choice.size : undefined);

function Preview({ answer }: { answer: BulkSwapDryRun }) {
  return (
    <div className="grid gap-2 rounded-lg border border-stone-200 p-3" data-testid="bulk-swap-preview">
      <p className="text-sm font-medium">
        {answer.count === 0
          ? `No active or paused plan has ${answer.from}.`
          : `${answer.count} ${answer.count === 1 ? 'plan' : 'plans'} would get ${answer.to} instead of ${answer.from}${answer.count > answer.plans.length ? ` (the first ${answer.plans.length} below)` : ''}.`}
      </p>
      {answer.plans.length > 0 && (
        <ul className="grid max-h-64 gap-1 overflow-y-auto text-sm">
          {answer.plans.map((plan) => (
            <li key={plan.id} className="flex flex-wrap gap-x-2">
              <Link to={`/admin/subscriptions/${plan.id}`} className="font-medium text-brand-700 hover:underline">
                {plan.customerName}
              </Link>
              <span className="break-all text-stone-600">{plan.customerEmail}</span>
              <span className="text-stone-600">{ADMIN_SUBSCRIPTION_STATUS_LABELS[plan.status]}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function RunLine({ run }: { run: BulkSwapRun }) {
  const skippedWhy = Object.entries(run.outcomes).filter(([outcome]) => outcome.startsWith('skipped') || outcome === 'failed');
  return (
    <li className="grid gap-0.5 rounded-lg border border-stone-200 p-3 text-sm" data-testid={`bulk-swap-run-${run.id}`}>
      <span className="font-medium">
        {run.from} → {run.to}
      </span>
      <span>
        {BULK_SWAP_RUN_STATUS_LABELS[run.status]}: {run.total === null ? 'counting the plans' : `${run.done} of ${run.total} plans done`} ({run.changed} changed, {run.skipped}{' '}
        skipped, {run.failed} failed)
      </span>
      {skippedWhy.map(([outcome, n]) => (
        <span key={outcome} className="text-stone-600">
          {n} × {BULK_SWAP_OUTCOME_LABELS[outcome as BulkSwapOutcome] ?? outcome}
        </span>
      ))}
      <span className="text-stone-600">
        Started by {run.staffEmail} on {formatOrderDate(run.createdAt)}
        {run.finishedAt ? `, finished ${formatOrderDate(run.finishedAt)}` : ''}. Reason: {run.reason}
      </span>
      {run.error && <span className="text-red-700">{run.error}</span>}
    </li>
  );
}

export function BulkSwapPanel() {
  const reasonId = useId();
  const queryClient = useQueryClient();
  const products = useQuery(bulkQueries.products);
  const runs = useQuery({ ...bulkQueries.runs, refetchInterval: (query) => (query.state.data?.runs.some((r) => r.status === 'queued' || r.status === 'running') ? 2000 : false) });
  const [from, setFrom] = useState<Choice>({ productId: '', size: EVERY_SIZE });
  const [to, setTo] = useState<Choice>({ productId: '', size: '' });
  const [reason, setReason] = useState('');
  const [preview, setPreview] = useState<BulkSwapDryRun | null>(null);

  const request = (dryRun: boolean) => ({ fromProductId: Number(from.productId), fromSize: sizeOf(from), toProductId: Number(to.productId), toSize: sizeOf(to), reason, dryRun });
  const dryRun = useMutation({
    mutationFn: () => bulkSwap(request(true)),
    onSuccess: (answer) => setPreview(answer.dryRun ? answer : null),
    onError: (error) => {
      setPreview(null);
      toast({ title: 'Cannot swap', description: serverMessageOf(error), variant: 'destructive' });
    },
  });
  const start = useMutation({
    mutationFn: () => bulkSwap(request(false)),
    onSuccess: () => {
      setPreview(null);
      toast({ title: BULK_SWAP_MESSAGES.started });
      void queryClient.invalidateQueries({ queryKey: bulkQueries.runs.queryKey });
    },
    onError: (error) => toast({ title: 'Cannot swap', description: serverMessageOf(error), variant: 'destructive' }),
  });
  const change = <T,>(set: (value: T) => void) => (value: T) => {
    set(value);
    setPreview(null);
  };
  const ready = from.productId !== '' && to.productId !== '' && reason.trim() !== '';

  return (
    <Card data-testid="bulk-swap-panel">
      <CardHeader className="pb-3">
        <CardTitle className="text-base">Swap a product on every plan</CardTitle>
        <CardDescription>
          When a product is reformulated, renamed or retired: every active or paused plan with it gets the new one instead, priced from today&apos;s catalogue. Each customer is emailed; each
          change is in the plan&apos;s history with your reason.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {products.isError && <p className="text-sm text-red-700">{serverMessageOf(products.error) ?? 'The products could not be loaded.'}</p>}
        <form
          className="grid gap-4"
          aria-label="Bulk swap"
          onSubmit={(event) => {
            event.preventDefault();
            if (ready) dryRun.mutate();
          }}
        >
          <ProductChoice label="Swap away" products={products.data ?? []} value={from} onChange={change(setFrom)} everySize />
          <ProductChoice label="Swap to" products={(products.data ?? []).filter((p) => p.status === 'active')} value={to} onChange={change(setTo)} everySize={false} />
          <div className="space-y-1.5">
            <Label htmlFor={reasonId}>Reason (kept in each plan&apos;s history, not sent to customers)</Label>
            <Input id={reasonId} value={reason} maxLength={500} onChange={(e) => change(setReason)(e.target.value)} />
          </div>
          <div className="flex flex-wrap gap-3">
            <Button type="submit" variant="outline" disabled={!ready || dryRun.isPending}>
              {dryRun.isPending && <Loader2 className="animate-spin" aria-hidden="true" />}
              See which plans would change
            </Button>
            {preview && preview.count > 0 && (
              <Button type="button" disabled={start.isPending} onClick={() => start.mutate()}>
                {start.isPending && <Loader2 className="animate-spin" aria-hidden="true" />}
                Swap on {preview.count} {preview.count === 1 ? 'plan' : 'plans'}
              </Button>
            )}
          </div>
        </form>
        {preview && <Preview answer={preview} />}
        <div className="grid gap-2">
          <h3 className="text-sm font-semibold text-stone-900">Recent swaps</h3>
          {runs.isPending ? (
            <p className="text-sm text-stone-600">Loading...</p>
          ) : runs.isError ? (
            <p className="text-sm text-red-700">{serverMessageOf(runs.error) ?? 'The swaps could not be loaded.'}</p>
          ) : runs.data.runs.length === 0 ? (
            <p className="text-sm text-stone-600">No swaps yet.</p>
          ) : (
            <ul className="grid gap-2">
              {runs.data.runs.map((run) => (
                <RunLine key={run.id} run={run} />
              ))}
            </ul>
          )}
        </div>
      </CardContent>
    </Card>
  );
}
