/**
 * Ship Now and one-time add-ons on an active plan's card (issue 21): the add-ons riding with the next
 * delivery only (each removable, priced today), a form to add one, the Ship Now button with its
 * confirmation (what is charged today, the next date after it), and how a Ship Now stands (charging,
 * charged, failed), refreshed every few seconds while it is charging. Shown once the API answers the
 * plan's add-ons (`oneTimeItems`).
 */
import { formatPrice, LIMITS } from '@nh/shared';
import { PLAN_ITEM_MAX_QUANTITY, PLAN_MAX_LINES } from '@nh/shared/constants';
import { nextBillingDate, type SubscriptionView } from '@nh/shared/contracts/subscriptions';
import { ONE_TIME_ITEM_PRICE_NOTE, SHIP_NOW_STATE_WORDS } from '@nh/shared/contracts/ship-now-add-ons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Plus, Truck, X } from 'lucide-react';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { productsQuery } from '@/lib/catalog-queries';
import { formatLongDate } from '@/lib/format-date';
import { subscriptionsQueryKey } from '../api';
import { useAddOnCall } from '../add-ons-api';
import { addableProducts } from '../addable-products';
import { DialogActions } from './dialog-actions';

const DAY_MS = 86_400_000;
/** While a Ship Now is charging, the list is asked again this often. */
export const SHIP_NOW_POLL_MS = 2000;

/**
 * The billing dates Ship Now leads to: the delivery charged today (the plan's own date when it is already
 * due, else today at its time of day), and the next one after it (+ the cadence), as the server moves them.
 */
export function shipNowDates(plan: Pick<SubscriptionView, 'nextBillingDate' | 'interval' | 'intervalCount'>, now = new Date()) {
  const next = new Date(plan.nextBillingDate);
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const timeOfDay = next.getTime() - Date.UTC(next.getUTCFullYear(), next.getUTCMonth(), next.getUTCDate());
  const charged = next.getTime() < today + DAY_MS ? next : new Date(today + timeOfDay);
  return { charged, after: nextBillingDate(charged, plan.interval, plan.intervalCount) };
}

function ShipNowDialog({ plan, open, pending, onConfirm, onDismiss }: { plan: SubscriptionView; open: boolean; pending: boolean; onConfirm: () => void; onDismiss: () => void }) {
  const { after } = shipNowDates(plan);
  const extras = plan.oneTimeItems.length;
  return (
    <Dialog open={open} onOpenChange={(isOpen) => !isOpen && !pending && onDismiss()}>
      <DialogContent hideClose={pending}>
        <DialogHeader>
          <DialogTitle>Ship your next delivery today?</DialogTitle>
          <DialogDescription>
            We will charge {formatPrice(plan.nextDeliveryAmount)} to your saved card today
            {extras > 0 ? ` (your plan's items and ${extras === 1 ? 'your one-time item' : `your ${extras} one-time items`})` : ''} and ship your next delivery
            now. After it, your next delivery is on {formatLongDate(after.toISOString())}.
          </DialogDescription>
        </DialogHeader>
        <DialogActions keep="Not Now" label="Ship Now" pending={pending} onKeep={onDismiss} onConfirm={onConfirm} />
      </DialogContent>
    </Dialog>
  );
}

function AddOneTimeItem({ plan, pending, onAdd }: { plan: SubscriptionView; pending: boolean; onAdd: (productId: number, size: string | null, quantity: number) => void }) {
  const baseId = useId();
  const products = useQuery(productsQuery);
  const choices = addableProducts(products.data ?? [], new Set());
  const [choice, setChoice] = useState('');
  const [quantity, setQuantity] = useState('1');
  const selected = choices.find((c) => c.key === choice);
  const count = Number(quantity);
  const validQuantity = Number.isInteger(count) && count >= 1 && count <= PLAN_ITEM_MAX_QUANTITY;
  const full = plan.oneTimeItems.length >= PLAN_MAX_LINES;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!selected || !validQuantity) return;
    onAdd(selected.productId, selected.variantSku, count);
    setChoice('');
    setQuantity('1');
  };
  return (
    <form onSubmit={submit} className="mt-3 space-y-1.5" aria-label="Add a one-time item">
      <Label htmlFor={`${baseId}-product`}>Add a one-time item</Label>
      <div className="flex flex-wrap gap-2">
        <select
          id={`${baseId}-product`}
          value={selected ? choice : ''}
          disabled={full || !products.data}
          onChange={(event) => setChoice(event.target.value)}
          className="h-10 w-full min-w-0 max-w-full flex-1 rounded-md border border-stone-300 bg-white px-2 text-sm text-stone-800 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 disabled:opacity-60 sm:w-auto"
        >
          <option value="">{products.isPending ? 'Loading products…' : 'Choose a product'}</option>
          {choices.map((c) => (
            <option key={c.key} value={c.key}>
              {c.name} – {formatPrice(c.price)}
            </option>
          ))}
        </select>
        <Label htmlFor={`${baseId}-quantity`} className="sr-only">
          Quantity
        </Label>
        <Input
          id={`${baseId}-quantity`}
          type="number"
          inputMode="numeric"
          min={1}
          max={PLAN_ITEM_MAX_QUANTITY}
          className="w-20"
          value={quantity}
          onChange={(event) => setQuantity(event.target.value)}
        />
        <Button type="submit" variant="outline" size="sm" className="h-10" disabled={pending || full || !selected || !validQuantity}>
          <Plus aria-hidden="true" />
          Add to Next Delivery
        </Button>
      </div>
      <p className="text-xs text-stone-500">{full ? `Your next delivery can carry at most ${PLAN_MAX_LINES} one-time items.` : ONE_TIME_ITEM_PRICE_NOTE}</p>
    </form>
  );
}

/** Ship Now and the one-time add-ons of one active plan. */
export function PlanAddOns({ subscription: plan }: { subscription: SubscriptionView }) {
  const call = useAddOnCall();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  // One key per confirmation: a double click or a retry of the same confirmation sends the same key.
  const [shipKey, setShipKey] = useState<string | null>(null);
  const charging = plan.shipNow?.state === 'charging';

  useEffect(() => {
    if (!charging) return;
    const timer = setInterval(() => void queryClient.invalidateQueries({ queryKey: subscriptionsQueryKey }), SHIP_NOW_POLL_MS);
    return () => clearInterval(timer);
  }, [charging, queryClient]);

  if (plan.status !== 'active') return null;
  const shortId = plan.id.slice(0, LIMITS.orderIdDisplayLength);
  const items = plan.oneTimeItems;
  const send = (c: Parameters<typeof call.mutate>[0]['call'], after?: () => void) => call.mutate({ id: plan.id, call: c }, { onSuccess: after });

  return (
    <section className="mt-4 rounded-xl border border-stone-200 p-4" aria-label={`Next delivery extras #${shortId}`} data-testid="plan-add-ons">
      {plan.shipNow && (
        <p role="status" className="mb-3 rounded-lg bg-brand-50 px-3 py-2 text-sm text-brand-900" data-testid="ship-now-status">
          {SHIP_NOW_STATE_WORDS[plan.shipNow.state]}
          {plan.shipNow.state === 'charged' && ` Your next delivery is on ${formatLongDate(plan.nextBillingDate)}.`}
        </p>
      )}
      <h4 className="text-sm font-semibold text-stone-900">One-time items for your next delivery</h4>
      {items.length === 0 ? (
        <p className="mt-1 text-sm text-stone-600">None: add a brush or a spare bottle to your next delivery only.</p>
      ) : (
        <ul className="mt-2 divide-y divide-stone-100 text-sm" aria-label="One-time items">
          {items.map((item) => (
            <li key={item.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
              <span className="font-medium text-stone-900">
                {item.quantity} × {item.productName}
              </span>
              <span className="flex items-center gap-2 text-stone-600">
                {item.priceToday ? `${formatPrice(item.priceToday)} each today, less your discount` : 'no longer sold: please remove it'}
                <Button type="button" variant="ghost" size="sm" aria-label={`Remove ${item.productName}`} disabled={call.isPending} onClick={() => send({ action: 'remove', lineId: item.id })}>
                  <X aria-hidden="true" />
                  Remove
                </Button>
              </span>
            </li>
          ))}
        </ul>
      )}
      <AddOneTimeItem plan={plan} pending={call.isPending} onAdd={(productId, size, quantity) => send({ action: 'add', productId, size, quantity })} />
      <div className="mt-4 flex flex-wrap items-center justify-between gap-2 border-t border-stone-100 pt-3">
        <p className="text-sm text-stone-600">
          Next delivery: {formatPrice(plan.nextDeliveryAmount)} on {formatLongDate(plan.nextBillingDate)}
        </p>
        <Button
          type="button"
          size="sm"
          disabled={charging || plan.paymentRetrying}
          onClick={() => {
            setShipKey(crypto.randomUUID());
            setConfirming(true);
          }}
        >
          <Truck aria-hidden="true" />
          Ship Now<span className="sr-only"> #{shortId}</span>
        </Button>
      </div>
      <ShipNowDialog
        plan={plan}
        open={confirming}
        pending={call.isPending}
        onDismiss={() => setConfirming(false)}
        onConfirm={() => shipKey && send({ action: 'ship-now', key: shipKey }, () => setConfirming(false))}
      />
    </section>
  );
}
