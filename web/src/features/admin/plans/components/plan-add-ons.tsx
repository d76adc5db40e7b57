/**
 * Ship now and one-time items on the customer's behalf (issue 21), on the plan page: the one-time items of
 * the next delivery, and (subscriptions.act) Ship now, Add one-time item and Remove, each with a reason for
 * the audit trail. POST /api/admin/subscriptions/{id}/ship-now (a new Idempotency-Key per dialog),
 * POST …/one-time-items, DELETE …/one-time-items/{lineId}; each answers the plan, shown at once.
 */
import type { AdminSubscriptionDetail } from '@nh/shared/contracts/admin-subscriptions';
import { ONE_TIME_ITEM_MESSAGES, ONE_TIME_ITEM_PRICE_NOTE } from '@nh/shared/contracts/ship-now-add-ons';
import { PLAN_ITEM_MAX_QUANTITY } from '@nh/shared/constants';
import { nextBillingDate } from '@nh/shared/contracts/subscriptions';
import { useQuery } from '@tanstack/react-query';
import { AlertCircle, Loader2 } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { productsQuery } from '@/lib/catalog-queries';
import { apiRequest, readJson, serverMessageOf } from '@/lib/query-client';
import { formatDay } from '../format';
import { usePlanChange } from '../plan-change';

type AddOnAction = { kind: 'ship-now' } | { kind: 'add' } | { kind: 'remove'; lineId: string; name: string };

type Sent =
  | { kind: 'ship-now'; key: string; reason: string }
  | { kind: 'add'; productId: number; size: string | null; quantity: number; reason: string }
  | { kind: 'remove'; lineId: string; reason: string };

async function send(id: string, s: Sent): Promise<AdminSubscriptionDetail> {
  const base = `/api/admin/subscriptions/${encodeURIComponent(id)}`;
  switch (s.kind) {
    case 'ship-now':
      return readJson(await apiRequest('POST', `${base}/ship-now`, { reason: s.reason }, { 'Idempotency-Key': s.key }));
    case 'add':
      return readJson(await apiRequest('POST', `${base}/one-time-items`, { productId: s.productId, ...(s.size ? { size: s.size } : {}), quantity: s.quantity, reason: s.reason }));
    case 'remove':
      return readJson(await apiRequest('DELETE', `${base}/one-time-items/${encodeURIComponent(s.lineId)}`, { reason: s.reason }));
  }
}

const TITLE: Record<AddOnAction['kind'], string> = { 'ship-now': 'Ship the next delivery now?', add: 'Add a one-time item', remove: 'Remove this one-time item?' };
const BUTTON: Record<AddOnAction['kind'], string> = { 'ship-now': 'Ship now', add: 'Add one-time item', remove: 'Remove item' };
const DONE: Record<AddOnAction['kind'], string> = { 'ship-now': 'Delivery is being charged and shipped', add: 'One-time item added', remove: 'One-time item removed' };

/** Today at the plan's time of day (or its own date when already due), and the date after it. */
function shipNowAfter(plan: AdminSubscriptionDetail): string {
  const next = new Date(plan.nextBillingDate);
  const now = new Date();
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const timeOfDay = next.getTime() - Date.UTC(next.getUTCFullYear(), next.getUTCMonth(), next.getUTCDate());
  const charged = next.getTime() < today + 86_400_000 ? next : new Date(today + timeOfDay);
  return nextBillingDate(charged, plan.interval, plan.intervalCount).toISOString();
}

function AddOnDialog({ plan, action, onClose }: { plan: AdminSubscriptionDetail; action: AddOnAction; onClose: () => void }) {
  const ids = { reason: useId(), product: useId(), quantity: useId(), problem: useId() };
  const [key] = useState(() => crypto.randomUUID());
  const [reason, setReason] = useState('');
  const [choice, setChoice] = useState('');
  const [quantity, setQuantity] = useState('1');
  const [problem, setProblem] = useState<string | null>(null);
  const products = useQuery({ ...productsQuery, enabled: action.kind === 'add' });
  const choices = (products.data ?? [])
    .filter((p) => p.status === 'active')
    .flatMap<{ key: string; productId: number; size: string | null; name: string }>((p) => (p.variants.length > 0 ? p.variants.map((v) => ({ key: `${p.id}:${v.sku}`, productId: p.id, size: v.sku, name: `${p.name} - ${v.label}` })) : [{ key: `${p.id}:`, productId: p.id, size: null, name: p.name }]));
  const act = usePlanChange(plan.id, (sent: Sent) => send(plan.id, sent), DONE[action.kind]);
  const change = (sent: Sent) => act.mutate(sent, { onSuccess: onClose, onError: (error) => setProblem(serverMessageOf(error) ?? `The plan could not be changed (${error.message}).`) });

  function submit(event: FormEvent) {
    event.preventDefault();
    if (act.isPending) return;
    const why = reason.trim();
    if (!why) return setProblem(action.kind === 'ship-now' ? ONE_TIME_ITEM_MESSAGES.shipNowReasonRequired : ONE_TIME_ITEM_MESSAGES.reasonRequired);
    setProblem(null);
    if (action.kind === 'ship-now') return change({ kind: 'ship-now', key, reason: why });
    if (action.kind === 'remove') return change({ kind: 'remove', lineId: action.lineId, reason: why });
    const selected = choices.find((c) => c.key === choice);
    const count = Number(quantity);
    if (!selected) return setProblem(ONE_TIME_ITEM_MESSAGES.product);
    if (!Number.isInteger(count) || count < 1 || count > PLAN_ITEM_MAX_QUANTITY) return setProblem(ONE_TIME_ITEM_MESSAGES.quantity);
    change({ kind: 'add', productId: selected.productId, size: selected.size, quantity: count, reason: why });
  }

  const emailed = `${plan.customerName} is emailed about the change. The reason stays in the audit trail.`;
  const description =
    action.kind === 'ship-now'
      ? `The next delivery (with its one-time items) is charged to the saved card now and ships today; the next one after it is on ${formatDay(shipNowAfter(plan))}. ${emailed}`
      : action.kind === 'add'
        ? `${ONE_TIME_ITEM_PRICE_NOTE.replace('your', 'the plan’s')} ${emailed}`
        : `${action.name} is taken off the next delivery. ${emailed}`;

  return (
    <Dialog open onOpenChange={(open) => !open && !act.isPending && onClose()}>
      <DialogContent>
        <form onSubmit={submit} noValidate className="grid grid-cols-1 gap-4">
          <DialogHeader>
            <DialogTitle>{TITLE[action.kind]}</DialogTitle>
            <DialogDescription>{description}</DialogDescription>
          </DialogHeader>
          {action.kind === 'add' && (
            <div className="grid grid-cols-1 gap-3 sm:grid-cols-[1fr_auto]">
              <div className="min-w-0 space-y-1.5">
                <Label htmlFor={ids.product}>Product</Label>
                <select
                  id={ids.product}
                  value={choice}
                  onChange={(e) => setChoice(e.target.value)}
                  className="h-10 w-full min-w-0 rounded-md border border-stone-300 bg-white px-2 text-sm text-stone-800"
                >
                  <option value="">{products.isPending ? 'Loading products…' : 'Choose a product'}</option>
                  {choices.map((c) => (
                    <option key={c.key} value={c.key}>
                      {c.name}
                    </option>
                  ))}
                </select>
              </div>
              <div className="space-y-1.5">
                <Label htmlFor={ids.quantity}>Quantity</Label>
                <Input id={ids.quantity} type="number" min={1} max={PLAN_ITEM_MAX_QUANTITY} className="w-24" value={quantity} onChange={(e) => setQuantity(e.target.value)} />
              </div>
            </div>
          )}
          <div className="space-y-1.5">
            <Label htmlFor={ids.reason}>Reason (for the audit trail)</Label>
            <Textarea id={ids.reason} rows={3} maxLength={500} required value={reason} onChange={(e) => setReason(e.target.value)} aria-describedby={problem ? ids.problem : undefined} />
          </div>
          {problem && (
            <Alert variant="destructive" role="alert" id={ids.problem} data-testid="add-on-problem">
              <AlertCircle aria-hidden="true" />
              <AlertDescription>{problem}</AlertDescription>
            </Alert>
          )}
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose} disabled={act.isPending}>
              Go back
            </Button>
            <Button type="submit" variant={action.kind === 'remove' ? 'destructive' : 'default'} disabled={act.isPending}>
              {act.isPending && <Loader2 className="animate-spin" aria-hidden="true" />}
              {BUTTON[action.kind]}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

/** The next delivery's one-time items and, for staff who may act, Ship now and Add one-time item. */
export function PlanAddOnActions({ plan, canAct }: { plan: AdminSubscriptionDetail; canAct: boolean }) {
  const [open, setOpen] = useState<AddOnAction | null>(null);
  const items = plan.oneTimeItems;
  const allowed = plan.addOnActions;
  if (plan.status !== 'active' && items.length === 0) return null;
  return (
    <Card data-testid="plan-add-ons">
      <CardHeader>
        <CardTitle className="text-base">Next delivery: ship now and one-time items</CardTitle>
      </CardHeader>
      <CardContent className="grid grid-cols-1 gap-3">
        {items.length === 0 ? (
          <p className="text-sm text-stone-600">No one-time items on the next delivery.</p>
        ) : (
          <ul className="divide-y divide-stone-100 text-sm" aria-label="One-time items of the next delivery">
            {items.map((item) => (
              <li key={item.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                <span>
                  {item.quantity} × {item.productName}
                </span>
                {canAct && allowed.oneTimeItems && (
                  <Button size="sm" variant="outline" aria-label={`Remove ${item.productName}`} onClick={() => setOpen({ kind: 'remove', lineId: item.id, name: item.productName })}>
                    Remove
                  </Button>
                )}
              </li>
            ))}
          </ul>
        )}
        {canAct && (
          <div className="flex flex-wrap gap-2">
            <Button variant="outline" disabled={!allowed.shipNow} onClick={() => setOpen({ kind: 'ship-now' })}>
              Ship now
            </Button>
            <Button variant="outline" disabled={!allowed.oneTimeItems} onClick={() => setOpen({ kind: 'add' })}>
              Add one-time item
            </Button>
          </div>
        )}
        {open && <AddOnDialog key={open.kind} plan={plan} action={open} onClose={() => setOpen(null)} />}
      </CardContent>
    </Card>
  );
}
