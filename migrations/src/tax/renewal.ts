/**
 * A renewal's pricing with the destination's tax (issue 25, docs/decisions/tax-and-shipping.md
 * "Renewals"): the one computation behind the renewal's order and charge, the renewal reminder's
 * figure and the plan pages' next charge.
 *
 * A plan keeps its pre-tax price: its stored amount (and agreed amount) were priced with the flat 8% as
 * every plan always was, and priceRenewal derives from them the pre-tax subtotal the price lock holds;
 * a save offer's one-time discount comes off that (withNextDeliveryDiscount). The tax is then worked out
 * again, line by line, for the plan's shipping address at today's rates (taxPricing). Under the flat
 * rule every figure is the one priceRenewal gave before.
 */
import { priceRenewal, toCents, withNextDeliveryDiscount, type Cents, type RenewalPricing } from '@nh/shared';
import type { Address, LineItem } from '../db/schema';
import type { TaxCalculator, TaxRequest, TaxSource } from './calculator';
import { taxPricing } from './price';

/** A line as the renewal prices it; `taxCode`: the product's tax code copied onto the line (a provider's), when it has one. */
type PricedLine = Pick<LineItem, 'productId' | 'price' | 'quantity'> & { taxCode?: string | null };

export interface RenewalToPrice {
  /** The plan's recurring lines at their stored prices. */
  items: readonly PricedLine[];
  /** The delivery's one-time add-ons at today's prices (issue 21). */
  addOns?: readonly PricedLine[];
  /** What the recurring lines may be charged, tax included under the flat rule (chargeableAmount). */
  agreed: Cents;
  /** A save offer's one-time discount on this delivery (issue 22). */
  nextDeliveryDiscountPercent?: number | null;
  /** Where the parcel goes: the plan's shipping address (null: the flat rule's figures for no address). */
  shippingAddress: Pick<Address, 'state' | 'zip'> & Partial<Pick<Address, 'city' | 'address'>> | null;
}

export type TaxedRenewalPricing = RenewalPricing & { taxSource: TaxSource };

/** Where a plan's tax is due: its shipping address. */
export const taxDestination = (address: RenewalToPrice['shippingAddress']): TaxRequest['to'] =>
  address ? { state: address.state, zip: address.zip, city: address.city ?? null, address: address.address ?? null } : { state: null, zip: null };

/** The renewal's pricing (recurring lines first, then the add-ons, as the order lists them), taxed for the plan's address. */
export function priceRenewalWithTax(tax: TaxCalculator, renewal: RenewalToPrice): Promise<TaxedRenewalPricing> {
  const cents = (line: PricedLine) => ({ productId: line.productId, price: toCents(line.price), quantity: line.quantity, taxCode: line.taxCode ?? null });
  const recurring = renewal.items.map(cents);
  const oneTime = (renewal.addOns ?? []).map(cents);
  const pricing = withNextDeliveryDiscount(priceRenewal(recurring, renewal.agreed, oneTime), renewal.nextDeliveryDiscountPercent);
  return taxPricing(tax, pricing, [...recurring, ...oneTime], taxDestination(renewal.shippingAddress));
}
