/**
 * The checkout summary's figures from the server (POST /api/checkout/quote, issue 25): asked ~300 ms
 * after the shopper stops typing the state or ZIP (or changes the method, the cart, the promo code or
 * Subscribe & Save). Until the quote for the current inputs arrives the last one stays on screen and
 * `current` is false: the form does not submit on figures that are not the server's for what is typed.
 */
import type { CartItem } from '@nh/shared/cart';
import type { CheckoutQuote, CheckoutQuoteRequest } from '@nh/shared/contracts/checkout';
import { toCents } from '@nh/shared/money';
import type { CartPricing, PricingStrings } from '@nh/shared/pricing';
import type { ShippingMethod } from '@nh/shared/shipping-rules';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { fetchCheckoutQuote } from './api';

export const QUOTE_DEBOUNCE_MS = 300;

export interface QuoteInputs {
  items: readonly CartItem[];
  promoCode: string | null;
  subscribe: boolean;
  state: string;
  zip: string;
  shippingMethod: ShippingMethod;
}

/** What the quote is asked for: the state only once it is two letters, the ZIP as typed (trimmed). */
export function quoteRequest(inputs: QuoteInputs): CheckoutQuoteRequest {
  const state = inputs.state.trim().toUpperCase();
  return {
    items: inputs.items.map((item) => ({ productId: item.productId, variantSku: item.variantSku, quantity: item.quantity })),
    promoCode: inputs.promoCode,
    subscribe: inputs.subscribe,
    state: state.length === 2 ? state : null,
    zip: inputs.zip.trim() || null,
    shippingMethod: inputs.subscribe ? 'standard' : inputs.shippingMethod,
  };
}

function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  const key = JSON.stringify(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the value's content, not its identity
  }, [key, ms]);
  return debounced;
}

/** The quote's figures as the summary shows them (a CartPricing over the server's amounts). */
export function pricingOfQuote(quote: CheckoutQuote, local: CartPricing): CartPricing {
  const part = (kind: string) => quote.discounts.filter((d) => d.kind === kind).reduce((s, d) => s + toCents(d.amount), 0);
  return {
    ...local,
    subtotal: toCents(quote.subtotal),
    subscribeDiscount: part('subscribe'),
    promoDiscount: part('promo'),
    discount: toCents(quote.discount),
    shipping: toCents(quote.shipping),
    freeShipping: quote.delivery?.free ?? false,
    tax: toCents(quote.tax),
    total: toCents(quote.total),
    lineTaxes: quote.lineTaxes.map(toCents),
    shippingTax: toCents(quote.shippingTax),
  };
}

/** The order payload's strings of a quote. */
export const quoteStrings = (quote: CheckoutQuote): PricingStrings => ({ subtotal: quote.subtotal, discount: quote.discount, shipping: quote.shipping, tax: quote.tax, total: quote.total });

/** "Tax (8%)" under the flat rule; "Tax" for a full ZIP otherwise, "Estimated tax" before one. */
export function taxRowLabel(quote: CheckoutQuote | null, zip: string): string {
  if (!quote || quote.taxSource === 'flat') return 'Tax (8%)';
  return /^\d{5}(-\d{4})?$/.test(zip.trim()) ? 'Tax' : 'Estimated tax';
}

export function useCheckoutQuote(inputs: QuoteInputs) {
  const request = quoteRequest(inputs);
  const asked = useDebounced(request, QUOTE_DEBOUNCE_MS);
  const key = JSON.stringify(request);
  const askedKey = JSON.stringify(asked);
  const query = useQuery({
    queryKey: ['/api/checkout/quote', askedKey],
    queryFn: ({ signal }) => fetchCheckoutQuote(asked, signal),
    enabled: asked.items.length > 0,
    placeholderData: keepPreviousData,
    staleTime: 30_000,
    retry: 1,
  });
  // Current: the answer is for what is typed now (not a previous address's, not still waiting for the debounce).
  const current = key === askedKey && query.isSuccess && !query.isPlaceholderData;
  return { quote: query.data ?? null, current, failed: key === askedKey && query.isError && !query.isFetching, error: query.error };
}
