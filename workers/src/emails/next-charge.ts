/**
 * What a plan's next delivery will charge, as the emails that quote it before the charge say it (the
 * renewal reminder, the card and item heads-ups): the renewal's one computation (@nh/server
 * priceRenewalWithTax: the plan's pre-tax price held as agreed, a save offer's one-time discount, the
 * delivery's one-time add-ons at today's prices, today's tax for the plan's address; issue 25).
 */
import { billingPeriodOf } from '@nh/shared/contracts/subscriptions';
import type { Cents } from '@nh/shared/money';
import { chargeableAmount } from '@nh/shared/subscriptions/agreed-price';
import type { Db } from '@nh/server/db/client';
import type { SubscriptionRow } from '@nh/server/db/schema';
import { addOnLines, readAddOnProducts } from '@nh/server/queries/subscriptions/ship-now';
import type { TaxCalculator } from '@nh/server/tax';
import { priceRenewalWithTax } from '@nh/server/tax/renewal';
import type { EmailPlanLine } from './subscription-plan';

export interface NextCharge {
  /** The delivery's one-time add-ons still sold (one no longer sold is left out: the heads-up names it). */
  oneTime: EmailPlanLine[];
  /** What the delivery charges, tax included. */
  charge: Cents;
  /** The sales tax in it, at today's rate for the plan's address. */
  tax: Cents;
}

export async function nextDeliveryCharge(db: Db, tax: TaxCalculator, sub: SubscriptionRow): Promise<NextCharge> {
  const { lines } = addOnLines(sub.oneTimeItems, await readAddOnProducts(db.$client, [...new Set(sub.oneTimeItems.map((o) => o.productId))]));
  // At most the price in force for the delivery's day (consent on record: a rise not notified in time is held back).
  const agreed = chargeableAmount(sub, billingPeriodOf(sub.nextBillingDate));
  const pricing = await priceRenewalWithTax(tax, { items: sub.items, addOns: lines, agreed, nextDeliveryDiscountPercent: sub.nextDeliveryDiscountPercent, shippingAddress: sub.shippingAddress });
  return { oneTime: lines, charge: pricing.total, tax: pricing.tax };
}
