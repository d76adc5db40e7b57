/**
 * Change the items for the customer: how many of each of the plan's lines (0 removes one) and a product to
 * add, with a reason. The server applies the shopper's own rules (plan-items.ts: what may be kept, raised
 * or added, at most the plan's line count) and prices every line from today's catalogue; the answer shows
 * the new amount.
 */
import { PLAN_ITEM_MAX_QUANTITY } from '@nh/shared';
import { ADMIN_SUBSCRIPTION_MESSAGES as MSG, changeItemsByStaffSchema, type AdminSubscriptionDetail } from '@nh/shared/contracts/admin-subscriptions';
import { planLineKey } from '@nh/shared/contracts/subscriptions';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { productsQuery } from '@/lib/catalog-queries';
import { firstIssue, OnBehalfDialog, useOnBehalfForm } from './on-behalf-dialog';

interface Line {
  key: string;
  productId: number;
  variantSku: string | null;
  name: string;
  quantity: string;
}

export function ChangeItemsForCustomer({ plan, onClose }: { plan: AdminSubscriptionDetail; onClose: () => void }) {
  const [lines, setLines] = useState<Line[]>(() => plan.items.map((i) => ({ key: planLineKey(i), productId: i.productId, variantSku: i.variantSku, name: i.productName, quantity: String(i.quantity) })));
  const [choice, setChoice] = useState('');
  const products = useQuery(productsQuery);
  const form = useOnBehalfForm(plan.id, MSG.itemsChanged, 'The items could not be changed', onClose);
  // Each active product, each size its own choice, without the lines already listed (the server decides again).
  const choices = useMemo(() => {
    const taken = new Set(lines.map((l) => l.key));
    return (products.data ?? [])
      .filter((p) => p.status === 'active')
      .flatMap<Omit<Line, 'quantity'>>((p) =>
        p.variants.length > 0
          ? p.variants.map((v) => ({ key: planLineKey({ productId: p.id, variantSku: v.sku }), productId: p.id, variantSku: v.sku, name: `${p.name} - ${v.label}` }))
          : [{ key: planLineKey({ productId: p.id, variantSku: null }), productId: p.id, variantSku: null, name: p.name }],
      )
      .filter((c) => !taken.has(c.key))
      .sort((a, b) => a.name.localeCompare(b.name));
  }, [products.data, lines]);

  const add = () => {
    const picked = choices.find((c) => c.key === choice);
    if (!picked) return;
    setLines((all) => [...all, { ...picked, quantity: '1' }]);
    setChoice('');
  };

  const submit = () => {
    const checked = changeItemsByStaffSchema.safeParse({
      items: lines.map((l) => ({ productId: l.productId, variantSku: l.variantSku, quantity: /^\d+$/.test(l.quantity) ? Number(l.quantity) : NaN })),
      reason: form.reason,
    });
    if (!checked.success) return form.setProblem(firstIssue(checked.error, MSG.itemsReason));
    form.send({ action: 'items', body: checked.data });
  };

  return (
    <OnBehalfDialog
      title="Change the items"
      description={`How many of each item every delivery brings (0 removes it), or a product to add. Every line is priced from today's catalogue with the plan's ${plan.discountPercent}% discount. ${plan.customerName} is emailed the new amount; the reason stays in the audit trail.`}
      submitLabel="Change items"
      {...form.dialog}
      onSubmit={submit}
    >
      <ul className="grid min-w-0 gap-2" aria-label="Items">
        {lines.map((line, index) => (
          <li key={line.key} className="flex min-w-0 items-center justify-between gap-3">
            <Label htmlFor={`staff-item-${index}`} className="min-w-0 break-words">
              {line.name}
            </Label>
            <Input
              id={`staff-item-${index}`}
              className="w-20 shrink-0"
              type="number"
              inputMode="numeric"
              min={0}
              max={PLAN_ITEM_MAX_QUANTITY}
              value={line.quantity}
              onChange={(e) => setLines((all) => all.map((l, i) => (i === index ? { ...l, quantity: e.target.value } : l)))}
            />
          </li>
        ))}
      </ul>
      <div className="grid min-w-0 gap-1.5">
        <Label htmlFor="staff-item-add">Add a product</Label>
        <div className="flex min-w-0 gap-2">
          <select
            id="staff-item-add"
            className="h-10 w-full min-w-0 rounded-md border border-stone-300 bg-white px-2 text-sm"
            value={choice}
            onChange={(e) => setChoice(e.target.value)}
            disabled={!products.data}
          >
            <option value="">{products.data ? 'Choose a product' : 'Loading products...'}</option>
            {choices.map((c) => (
              <option key={c.key} value={c.key}>
                {c.name}
              </option>
            ))}
          </select>
          <button type="button" className="shrink-0 rounded-md border border-stone-300 px-3 text-sm font-medium hover:bg-stone-50 disabled:opacity-50" onClick={add} disabled={!choice}>
            Add
          </button>
        </div>
      </div>
    </OnBehalfDialog>
  );
}
