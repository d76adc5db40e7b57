/**
 * The rule of a change of a plan's items, one place for the shopper (My Subscriptions, PUT
 * /api/subscriptions/{id}/items) and for staff on the customer's behalf (PUT /api/admin/subscriptions/{id}/items):
 * each side refuses in its own words. Judged on the plan as locked (@nh/server lockPlanForChange); the
 * caller writes what it answers with its own record (the shopper's email, staff's audit row and email).
 */
import { PLAN_MAX_LINES } from '@nh/shared/constants';
import { centsToDecimal, toCents } from '@nh/shared/money';
import { pricePlan } from '@nh/shared/pricing';
import { planLineKey, type ChangeItemsRequest } from '@nh/shared/contracts/subscriptions';
import type { LineItem } from '@nh/server/db/schema';
import type { LockedPlan } from '@nh/server/queries/subscriptions/changes';
import { catalogueLine, type PricedProduct } from '../catalog';
import { AppError } from '../../lib/errors';
import { refuseState, refuseWhilePeriodBusy, type PlanDecision, type PlanRuleWords } from './plan-rules';

/** Looks the plan's products up in the catalogue (fresh, not the cached price list). */
export type CatalogueLookup = (productIds: number[]) => Promise<Map<number, PricedProduct>>;

/** The sentences a change of items is refused with (SUBSCRIPTION_MESSAGES for shoppers, ADMIN_SUBSCRIPTION_MESSAGES for staff). */
export interface ItemRuleWords extends Pick<PlanRuleWords, 'alreadyEnded' | 'chargeInProgress' | 'chargeBeingChecked'> {
  itemsNotActive: string;
  itemsNotOnPlan: string;
  noItemsLeft: string;
  tooManyItems: string;
  productNotSold: string;
  sizeNotSold: (name: string) => string;
  noSizes: (name: string) => string;
  itemNotSold: (name: string) => string;
  itemOutOfStock: (name: string) => string;
}

/** A change of items: the plan's new lines and amount, with what the emails and the audit row tell. */
export interface ItemsDecision extends PlanDecision {
  kind: 'items';
  fromAmount: number;
  added: Array<{ productName: string; quantity: number }>;
}

type WantedLine = ChangeItemsRequest['items'][number];

/** A product to add, priced from the catalogue: active only, and one of its sizes when it has sizes (none when it has none). */
function addedLine(products: Map<number, PricedProduct>, line: WantedLine, words: ItemRuleWords): LineItem {
  const product = products.get(line.productId);
  if (!product || product.status !== 'active') throw new AppError('SUBSCRIPTION_ITEM_NOT_SOLD', words.productNotSold, { productId: line.productId });
  if (product.variants.length === 0) {
    if (line.variantSku) throw new AppError('SUBSCRIPTION_ITEM_NOT_SOLD', words.noSizes(product.name), { productId: line.productId, variantSku: line.variantSku });
    return catalogueLine(product, null, line.quantity);
  }
  const variant = product.variants.find((v) => v.sku === line.variantSku);
  if (!variant) throw new AppError('SUBSCRIPTION_ITEM_NOT_SOLD', words.sizeNotSold(product.name), { productId: line.productId, variantSku: line.variantSku });
  return catalogueLine(product, variant, line.quantity);
}

/**
 * A line the plan keeps, re-priced from the catalogue (its name as the plan has it). One no longer sold
 * (inactive, removed, its size gone) can only be removed; one out of stock may stay or be lowered (the
 * renewal tells the shopper if it cannot be delivered on the day) but not raised.
 */
function keptLine(products: Map<number, PricedProduct>, line: LineItem, quantity: number, words: ItemRuleWords): LineItem {
  const product = products.get(line.productId);
  const variant = line.variantSku ? product?.variants.find((v) => v.sku === line.variantSku) : undefined;
  const outOfStock = product?.status === 'out_of_stock';
  if (!product || (product.status !== 'active' && !outOfStock) || (line.variantSku && !variant)) throw new AppError('SUBSCRIPTION_ITEM_NOT_SOLD', words.itemNotSold(line.productName), { productId: line.productId });
  if (outOfStock && quantity > line.quantity) throw new AppError('SUBSCRIPTION_ITEM_NOT_SOLD', words.itemOutOfStock(line.productName), { productId: line.productId });
  return { ...line, quantity, price: centsToDecimal(variant ? toCents(variant.price) : product.price) };
}

const linesOf = (items: LineItem[]) => items.map(({ productId, productName, variantSku, quantity, price }) => ({ productId, productName, variantSku, quantity, price }));

/**
 * New quantities for the plan's own lines (0 removes one; each is listed) and any products to add (not yet
 * on the plan, quantity 1..PLAN_ITEM_MAX_QUANTITY, at most PLAN_MAX_LINES lines after the change; at least
 * one line stays), priced from today's catalogue on the server (never the browser's prices): the plan's
 * amount becomes the Subscribe & Save renewal total of the new lines. An item no longer sold can only be
 * removed, one out of stock not raised; a product not sold (or out of stock) cannot be added. Active
 * plans only, not while the period's charge is under way. Null when nothing changes.
 */
export async function decideItems({ row, periodCharge }: LockedPlan, lookUp: CatalogueLookup, input: ChangeItemsRequest, words: ItemRuleWords): Promise<ItemsDecision | null> {
  if (row.status !== 'active') refuseState(row, words, 'SUBSCRIPTION_NOT_ACTIVE', words.itemsNotActive);
  // The period's order is already written with the old lines and amount: the change waits for its charge.
  refuseWhilePeriodBusy(periodCharge, words);
  const wanted = new Map(input.items.map((i) => [planLineKey(i), i]));
  const everyLineOnce = wanted.size === input.items.length && row.items.every((i) => wanted.has(planLineKey(i)));
  if (!everyLineOnce) throw new AppError('SUBSCRIPTION_ITEMS_INVALID', words.itemsNotOnPlan);
  const quantityOf = (line: LineItem) => wanted.get(planLineKey(line))!.quantity;
  const onPlan = new Set(row.items.map(planLineKey));
  const toAdd = input.items.filter((i) => !onPlan.has(planLineKey(i)) && i.quantity > 0);
  const kept = row.items.filter((i) => quantityOf(i) > 0);
  if (kept.length + toAdd.length === 0) throw new AppError('SUBSCRIPTION_ITEMS_INVALID', words.noItemsLeft);
  if (toAdd.length > 0 && kept.length + toAdd.length > PLAN_MAX_LINES) throw new AppError('SUBSCRIPTION_ITEMS_INVALID', words.tooManyItems, { maxLines: PLAN_MAX_LINES });
  if (toAdd.length === 0 && row.items.every((i) => quantityOf(i) === i.quantity)) return null;

  const products = await lookUp([...new Set([...kept, ...toAdd].map((i) => i.productId))]);
  const added = toAdd.map((line) => addedLine(products, line, words));
  const items = [...kept.map((line) => keptLine(products, line, quantityOf(line), words)), ...added];
  const amount = pricePlan(
    items.map((i) => ({ price: toCents(i.price), quantity: i.quantity })),
    null,
  ).renewal.total;
  return {
    kind: 'items',
    change: { items, amount },
    before: { amount: row.amount, items: linesOf(row.items) },
    after: { amount, items: linesOf(items) },
    fromAmount: row.amount,
    added: added.map(({ productName, quantity }) => ({ productName, quantity })),
  };
}
