/**
 * Sales tax by destination (issue 25, docs/decisions/tax-and-shipping.md): one interface, chosen by
 * configuration (TAX_MODE) like the payment gateway, used by checkout, the checkout summary's quote and
 * every renewal.
 *
 * - `flat`: the spec's rule, 8% of the discounted subtotal (the default: unchanged figures);
 * - `table`: the merchant's rates by state and ZIP code (TAX_RATES_FILE);
 * - `taxjar`: TaxJar's API where the shop has nexus (TAX_NEXUS_STATES), falling back to the table when
 *   it is slow or down: tax never fails a checkout.
 *
 * A calculator is asked for each line's tax on what the line costs after its discounts (pricing.ts
 * `lineNet`), so a starter kit and a refill may be taxed differently where a provider says so.
 */
import type { Cents, LineTaxes } from '@nh/shared';
import type { TaxSourceName } from '@nh/shared/contracts/order-delivery';

export type TaxMode = 'flat' | 'table' | 'taxjar';
export const TAX_MODES = ['flat', 'table', 'taxjar'] as const satisfies readonly TaxMode[];

/** Where an order's tax came from, kept on the order (orders.tax_source) for staff and reconciliation. */
export type TaxSource = TaxSourceName;

export interface TaxLine {
  productId: number;
  quantity: number;
  /** What the line costs after its share of the discounts (cents, Σ = the discounted subtotal). */
  amount: Cents;
  /** A provider's product tax code, where the product has one (null: general goods). */
  taxCode?: string | null;
}

export interface TaxRequest {
  /** The shipping address: tax is due where the parcel goes. Null state: before the shopper typed one. */
  to: { state: string | null; zip: string | null; city?: string | null; address?: string | null };
  lines: readonly TaxLine[];
  /** What shipping costs on the order (some states tax it; a provider says so). */
  shipping: Cents;
}

export interface TaxQuote extends LineTaxes {
  lineTaxes: Cents[];
  shippingTax: Cents;
  source: TaxSource;
}

export interface TaxCalculator {
  readonly mode: TaxMode;
  /** Never rejects for a reachable reason: a provider that fails answers from the fallback. */
  quote(request: TaxRequest): Promise<TaxQuote>;
  /**
   * Re-reads TAX_RATES_FILE (table, and taxjar's fallback table; absent for flat): true when the new
   * rates are in force, false (logged) when the file is bad and the previous rates stay.
   * `reloadTaxRatesOnSignal` calls it on SIGHUP.
   */
  reload?(): Promise<boolean>;
}
