/**
 * What a bulk swap does to one plan (pure; the plan as locked by changeLockedPlan): its lines of the
 * product (or size) swapped away become one line of the product swapped in, priced from today's
 * catalogue, with the quantities added up. Other lines keep their prices. Skipped, with the reason the
 * run counts: a plan ended meanwhile, one that no longer has the product (the customer changed it), one
 * whose next delivery's charge is under way or being checked (its order is written with the old lines;
 * a second run picks it up), and one whose added-up quantity would be over PLAN_ITEM_MAX_QUANTITY (no
 * units are dropped silently: staff change that plan by hand). docs/decisions/subscriptions.md ("Bulk swap").
 */
import { PLAN_ITEM_MAX_QUANTITY } from '@nh/shared/constants';
import { planLineKey } from '@nh/shared/contracts/subscriptions';
import { toCents, type Cents } from '@nh/shared/money';
import { pricePlan } from '@nh/shared/pricing';
import type { LineItem } from '@nh/server/db/schema';
import type { LockedPlan } from '@nh/server/queries/subscriptions/changes';
import type { SwapSide } from '@nh/server/queries/subscriptions/bulk-swap';
import { periodBusy } from '@nh/server/queries/subscriptions/period-charge';

export type SwapSkip = 'skipped-ended' | 'skipped-changed' | 'skipped-busy' | 'skipped-quantity';

export type SwapDecision =
  | { outcome: SwapSkip }
  | {
      outcome: 'swapped' | 'merged';
      items: LineItem[];
      amount: Cents;
      /** The plan's lines swapped away. */
      removed: LineItem[];
      /** The line of the product swapped in already on the plan, that `added` replaces (`merged`). */
      mergedWith: LineItem | null;
      /** The line swapped in (with the quantity of the line it merged with, when `merged`). */
      added: LineItem;
      /** The plan's amount before. */
      fromAmount: Cents;
    };

const matches = (line: LineItem, from: SwapSide) => line.productId === from.productId && (from.variantSku === null || line.variantSku === from.variantSku);

/** `toLine(quantity)`: the line swapped in, priced from today's catalogue. */
export function decideSwap({ row, periodCharge }: Pick<LockedPlan, 'row' | 'periodCharge'>, from: SwapSide, toLine: (quantity: number) => LineItem): SwapDecision {
  if (row.status !== 'active' && row.status !== 'paused') return { outcome: 'skipped-ended' };
  const toKey = planLineKey(toLine(1));
  // A line already of the product swapped in stays (it is merged into, not swapped away).
  const removed = row.items.filter((line) => matches(line, from) && planLineKey(line) !== toKey);
  if (removed.length === 0) return { outcome: 'skipped-changed' };
  if (periodBusy(periodCharge)) return { outcome: 'skipped-busy' };
  const existing = row.items.find((line) => planLineKey(line) === toKey);
  const quantity = removed.reduce((sum, line) => sum + line.quantity, existing?.quantity ?? 0);
  if (quantity > PLAN_ITEM_MAX_QUANTITY) return { outcome: 'skipped-quantity' };
  const added = toLine(quantity);
  // The new line takes the place of the one merged into, else of the first line swapped away.
  const at = existing ?? removed[0]!;
  const items = row.items.filter((line) => line === at || !removed.includes(line)).map((line) => (line === at ? added : line));
  const amount = pricePlan(
    items.map((i) => ({ price: toCents(i.price), quantity: i.quantity })),
    null,
  ).renewal.total;
  return { outcome: existing ? 'merged' : 'swapped', items, amount, removed, mergedWith: existing ?? null, added, fromAmount: row.amount };
}
