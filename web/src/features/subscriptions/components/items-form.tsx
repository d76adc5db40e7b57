/**
 * Change Items: how many of each of the plan's items (0 removes one), and products to add from the shop's
 * active products and their sizes (the shared product list query), at most PLAN_MAX_LINES lines. Every
 * line's price is today's catalogue price (the plan's stored prices are those of its last change): the
 * server prices every line again on saving and answers the new total, which the page then shows. The form
 * previews that total as it is edited (../items-total.ts, the server's pricing rule).
 */
import { formatPrice, PLAN_ITEM_MAX_QUANTITY, PLAN_MAX_LINES } from '@nh/shared';
import { formatCents } from '@nh/shared/money';
import { planLineKey, SUBSCRIPTION_MESSAGES, type ChangeItemsRequest, type SubscriptionView } from '@nh/shared/contracts/subscriptions';
import { useQuery } from '@tanstack/react-query';
import { useId, useMemo, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { productsQuery } from '@/lib/catalog-queries';
import { addableProducts, cataloguePriceOf } from '../addable-products';
import { previewPlanTotal } from '../items-total';
import { DialogActions } from './dialog-actions';

interface Line {
  key: string;
  productId: number;
  variantSku: string | null;
  name: string;
  /** An added line's catalogue price (a kept line's is read from the product list as it renders). */
  price: string;
  /** As typed. */
  quantity: string;
  /** Not on the plan yet. */
  added: boolean;
}

interface Props {
  plan: SubscriptionView;
  pending: boolean;
  onKeep: () => void;
  onSend: (items: ChangeItemsRequest['items']) => void;
}

const parseQuantity = (typed: string) => (/^\d+$/.test(typed) ? Number(typed) : NaN);

export function ItemsForm({ plan, pending, onKeep, onSend }: Props) {
  const [lines, setLines] = useState<Line[]>(() =>
    plan.items.map((item) => ({ key: planLineKey(item), productId: item.productId, variantSku: item.variantSku, name: item.productName, price: item.price, quantity: String(item.quantity), added: false })),
  );
  const [choice, setChoice] = useState('');
  const products = useQuery(productsQuery);
  const choices = useMemo(() => addableProducts(products.data ?? [], new Set(lines.map((l) => l.key))), [products.data, lines]);
  const selected = choices.find((c) => c.key === choice);
  const baseId = useId();

  /** What a line's label says of its price: today's catalogue price; nothing until the list is loaded. */
  const priceWords = (line: Line) => {
    if (line.added) return `${formatPrice(line.price)} each, added`;
    if (!products.data) return null;
    const today = cataloguePriceOf(products.data, line);
    if (!today) return 'no longer sold: set it to 0 to remove it';
    return `${formatPrice(today.price)} each today${today.outOfStock ? ', out of stock' : ''}`;
  };

  const quantities = lines.map((l) => parseQuantity(l.quantity));
  const quantitiesValid = quantities.every((n) => Number.isInteger(n) && n >= 0 && n <= PLAN_ITEM_MAX_QUANTITY) && quantities.some((n) => n > 0);
  const linesAfter = quantities.filter((n) => n > 0).length;
  const adding = lines.some((l, i) => l.added && quantities[i]! > 0);
  const tooMany = adding && linesAfter > PLAN_MAX_LINES;
  const valid = quantitiesValid && !tooMany;
  const canAdd = linesAfter < PLAN_MAX_LINES;
  // The new per-delivery total, priced as the server will price it on saving (today's catalogue prices).
  const newTotal = !quantitiesValid
    ? null
    : previewPlanTotal(
        lines.map((line, i) => ({
          price: line.added ? line.price : products.data ? (cataloguePriceOf(products.data, line)?.price ?? null) : null,
          quantity: quantities[i]!,
        })),
      );
  const unchanged = lines.every((l, i) => !l.added && quantities[i] === plan.items[i]?.quantity);

  const add = () => {
    if (!selected) return;
    setLines((all) => [...all, { ...selected, quantity: '1', added: true }]);
    setChoice('');
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!valid) return;
    const items = lines.map((l, i) => ({ productId: l.productId, variantSku: l.variantSku, quantity: quantities[i]!, added: l.added }));
    // An added line set back to 0 is simply not added.
    onSend(items.filter((l) => !l.added || l.quantity > 0).map(({ productId, variantSku, quantity }) => ({ productId, variantSku, quantity })));
  };

  const hint = products.isError
    ? 'The shop\'s products could not be loaded. You can still change the quantities.'
    : !canAdd
      ? `A subscription can have at most ${PLAN_MAX_LINES} different items.`
      : 'An added product comes with every delivery from the next one, at today\'s price with your discount.';

  return (
    <form onSubmit={submit} className="min-w-0 space-y-4" aria-label="Item quantities">
      <p className="text-sm text-stone-600">Each delivery is priced at today's prices, with your discount: saving prices every item again and shows the new total.</p>
      <ul className="space-y-3">
        {lines.map((line, i) => (
          <li key={line.key} className="flex min-w-0 items-center justify-between gap-3">
            <Label htmlFor={`${baseId}-${i}`} className="min-w-0 break-words">
              {line.name} {priceWords(line) && <span className="font-normal text-stone-500">({priceWords(line)})</span>}
            </Label>
            <Input
              id={`${baseId}-${i}`}
              type="number"
              inputMode="numeric"
              min={0}
              max={PLAN_ITEM_MAX_QUANTITY}
              className="w-20 shrink-0"
              value={line.quantity}
              onChange={(event) => setLines((all) => all.map((l, j) => (j === i ? { ...l, quantity: event.target.value } : l)))}
            />
          </li>
        ))}
      </ul>
      <div className="min-w-0 space-y-1.5 border-t border-stone-200 pt-4">
        <Label htmlFor={`${baseId}-add`}>Add a product</Label>
        <div className="flex min-w-0 flex-col gap-2 sm:flex-row">
          <select
            id={`${baseId}-add`}
            value={selected ? choice : ''}
            disabled={!canAdd || !products.data || choices.length === 0}
            aria-describedby={`${baseId}-add-hint`}
            onChange={(event) => setChoice(event.target.value)}
            className="h-10 w-full min-w-0 flex-1 truncate rounded-md border border-stone-300 bg-white px-2 text-sm text-stone-800 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 disabled:opacity-60"
          >
            <option value="">{products.isPending ? 'Loading products…' : 'Choose a product'}</option>
            {choices.map((c) => (
              <option key={c.key} value={c.key}>
                {c.name} – {formatPrice(c.price)}
              </option>
            ))}
          </select>
          <Button type="button" variant="outline" onClick={add} disabled={!selected || !canAdd}>
            Add
          </Button>
        </div>
        <p id={`${baseId}-add-hint`} className="text-sm text-stone-600">
          {hint}
        </p>
      </div>
      <p className="flex flex-wrap items-baseline justify-between gap-x-3 rounded-lg bg-stone-50 px-3 py-2 text-sm" data-testid="items-new-total" aria-live="polite">
        <span className="text-stone-600">{unchanged ? 'Each delivery' : 'Each delivery after this change'}</span>
        <span className="font-semibold text-stone-900">
          {newTotal === null ? '—' : formatCents(newTotal)}
          {!unchanged && newTotal !== null && <span className="font-normal text-stone-600"> (now {formatPrice(plan.amount)})</span>}
        </span>
      </p>
      {!valid && (
        <p className="text-sm text-red-700" role="alert">
          {quantitiesValid ? SUBSCRIPTION_MESSAGES.tooManyItems : `Choose from 0 to ${PLAN_ITEM_MAX_QUANTITY} of each item, and keep at least one.`}
        </p>
      )}
      <DialogActions keep="Keep Items" label="Save Items" pending={pending} disabled={!valid} onKeep={onKeep} />
    </form>
  );
}
