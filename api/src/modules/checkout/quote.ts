/**
 * The checkout summary's quote (POST /api/checkout/quote, issue 25): what Place order would charge for
 * this cart shipped to the state and ZIP typed so far, priced from the catalogue (never the browser's
 * prices) through the same path as the order (./pricing.ts), and both shipping choices of the zone so
 * the form can show them. Nothing is written, nothing is reserved.
 *
 * A promo code that is not usable is answered as the cart without it, with the message (as the
 * summary's promo field shows it); the route counts it against the promo guessing budget.
 */
import {
  centsToDecimal,
  discountLines,
  freeShippingNote,
  shippingOptionsFor,
  shippingZoneOf,
  toCents,
  HOME_ZONE,
  type PricingPromo,
} from '@nh/shared';
import { CHECKOUT_MESSAGES, type CheckoutQuote, type CheckoutQuoteInput } from '@nh/shared/contracts/checkout';
import type { Db } from '@nh/server/db/client';
import { findUsablePromo } from '@nh/server/queries/promo';
import type { TaxCalculator } from '@nh/server/tax';
import { AppError } from '../../lib/errors';
import { catalogueLine, type PriceList } from '../catalog/price-list';
import { priceCheckout, refusalField, type CheckoutLine } from './pricing';

export interface QuoteDeps {
  pool: Db['$client'];
  priceList: PriceList;
  tax: TaxCalculator;
}

const NO_LONGER_AVAILABLE = 'A product in your cart is no longer available. Please remove it and try again.';

/** The lines of the cart at the catalogue's prices; a product (or size) no longer sold is refused, naming it. */
async function catalogueLines(priceList: PriceList, items: CheckoutQuoteInput['items']): Promise<CheckoutLine[]> {
  const productIds = [...new Set(items.map((i) => i.productId))];
  const products = await priceList.get(productIds, { fresh: false });
  const unavailable = productIds.filter((id) => products.get(id)?.status !== 'active');
  if (unavailable.length) throw new AppError('PRODUCT_UNAVAILABLE', NO_LONGER_AVAILABLE, { productIds: unavailable });
  return items.map((item) => {
    const product = products.get(item.productId)!;
    const variant = item.variantSku ? product.variants.find((v) => v.sku === item.variantSku) : undefined;
    if (item.variantSku && !variant)
      throw new AppError('PRODUCT_UNAVAILABLE', `The selected size of "${product.name}" is no longer available. Please update your cart.`, { productId: product.id, variantSku: item.variantSku });
    const line = catalogueLine(product, variant ?? null, item.quantity);
    return { productId: product.id, price: toCents(line.price), quantity: item.quantity };
  });
}

export interface QuoteAnswer {
  quote: CheckoutQuote;
  /** The request named a promo code that is not usable (counted against the guessing budget). */
  promoRefused: boolean;
}

export async function quoteCheckout(deps: QuoteDeps, input: CheckoutQuoteInput): Promise<QuoteAnswer> {
  const lines = await catalogueLines(deps.priceList, input.items);
  let promo: PricingPromo | null = null;
  let promoMessage: string | null = null;
  if (input.promoCode) {
    const row = await findUsablePromo(deps.pool, input.promoCode);
    if (row) promo = { discountType: row.discountType, discountValue: row.discountValue };
    else promoMessage = CHECKOUT_MESSAGES.promoInvalid;
  }
  const to = { state: input.state, zip: input.zip };
  const { pricing, renewal } = await priceCheckout(deps.tax, lines, { promo, subscribe: input.subscribe, shippingMethod: input.shippingMethod, to });
  const zone = input.state ? shippingZoneOf(input.state) : HOME_ZONE;
  const d = centsToDecimal;
  const delivery = pricing.delivery;
  const quote: CheckoutQuote = {
    subtotal: d(pricing.subtotal),
    discounts: discountLines(pricing, promo ? input.promoCode : null).map((line) => ({ kind: line.kind, label: line.label, amount: d(line.amount) })),
    discount: d(pricing.discount),
    shipping: d(pricing.shipping),
    tax: d(pricing.tax),
    total: d(pricing.total),
    lineTaxes: pricing.lineTaxes.map(d),
    shippingTax: d(pricing.shippingTax),
    taxSource: pricing.taxSource,
    delivery: delivery && zone ? { zone: delivery.zone, zoneName: zone.name, method: delivery.method, promise: delivery.promise, free: delivery.free } : null,
    options: shippingOptionsFor(lines, { promo, subscribe: input.subscribe, state: input.state }),
    freeShippingNote: zone && !input.subscribe ? freeShippingNote(zone) : null,
    refusal: pricing.shippingRefusal ? { message: pricing.shippingRefusal.message, field: refusalField(pricing) } : null,
    promoMessage,
    renewalTotal: renewal ? d(renewal.total) : null,
  };
  return { quote, promoRefused: promoMessage !== null };
}
