/**
 * Change Items' preview of the new price per delivery, by the one rule the server charges with on saving
 * (shared pricePlan: the plan discount, free shipping, tax): today's catalogue price of each line times its
 * quantity. Only a preview: the server prices every line again from its catalogue when the change is saved.
 */
import { pricePlan } from '@nh/shared/pricing';
import { toCents, type Cents } from '@nh/shared/money';

/** A line as the form has it: its unit price today (null: not sold any more, or not known yet) and its quantity. */
export interface PreviewLine {
  price: string | null;
  quantity: number;
}

/** The per-delivery total of the lines kept (quantity above 0); null when a kept line's price is not known or nothing is kept. */
export function previewPlanTotal(lines: readonly PreviewLine[]): Cents | null {
  const kept = lines.filter((l) => l.quantity > 0);
  if (kept.length === 0 || kept.some((l) => l.price === null || !Number.isInteger(l.quantity))) return null;
  return pricePlan(
    kept.map((l) => ({ price: toCents(l.price!), quantity: l.quantity })),
    null,
  ).renewal.total;
}
