import { priceCart, pricePlan } from '@nh/shared/pricing';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { OrderSummary } from './order-summary';

afterEach(cleanup);

const items = [{ productId: 1, variantSku: null, name: 'Starter Kit', price: 3294, quantity: 1, slug: 'starter-kit' }];
const WELCOME10 = { discountType: 'percentage' as const, discountValue: 10 };

describe("the checkout's order summary", () => {
  it('shows Subscribe & Save and the promo code each on its own line, in the words of the order page and emails', () => {
    const plan = pricePlan(items, WELCOME10);
    render(<OrderSummary items={items} pricing={plan.firstDelivery} promoCode="WELCOME10" renewalTotal={plan.renewal.total} />);
    expect(screen.getByText('Subscribe & Save (15%)')).toBeTruthy();
    expect(screen.getByTestId('summary-subscribe-discount').textContent).toBe('-$4.94');
    expect(screen.getByText('Discount (WELCOME10)')).toBeTruthy();
    expect(screen.getByTestId('summary-promo-discount').textContent).toBe('-$2.80');
  });

  it('shows no discount line without a discount', () => {
    render(<OrderSummary items={items} pricing={priceCart(items)} promoCode={null} />);
    expect(screen.queryByText(/Discount/)).toBeNull();
    expect(screen.queryByTestId('summary-subscribe-discount')).toBeNull();
    expect(screen.queryByTestId('summary-promo-discount')).toBeNull();
  });

  it('says how often the plan renews after the first delivery (every month by default)', () => {
    const plan = pricePlan(items, null);
    render(<OrderSummary items={items} pricing={plan.firstDelivery} promoCode={null} renewalTotal={plan.renewal.total} />);
    expect(screen.getByTestId('summary-renewal').textContent).toBe(`Then $${(plan.renewal.total / 100).toFixed(2)} every month until you cancel.`);
    cleanup();
    render(<OrderSummary items={items} pricing={plan.firstDelivery} promoCode={null} renewalTotal={plan.renewal.total} cadence="every 2 months" />);
    expect(screen.getByTestId('summary-renewal').textContent).toBe(`Then $${(plan.renewal.total / 100).toFixed(2)} every 2 months until you cancel.`);
  });

  it('store credit (issue 23): a line for it and what the card pays, never more than the total', () => {
    const pricing = priceCart(items);
    render(<OrderSummary items={items} pricing={pricing} promoCode={null} storeCredit={1000} />);
    expect(screen.getByTestId('summary-store-credit').textContent).toContain('-$10.00');
    expect(screen.getByTestId('summary-card-amount').textContent).toContain(`$${((pricing.total - 1000) / 100).toFixed(2)}`);
    cleanup();
    render(<OrderSummary items={items} pricing={pricing} promoCode={null} storeCredit={pricing.total + 5000} />);
    expect(screen.getByTestId('summary-store-credit').textContent).toContain(`-$${(pricing.total / 100).toFixed(2)}`);
    expect(screen.getByTestId('summary-card-amount').textContent).toContain('$0.00');
    cleanup();
    render(<OrderSummary items={items} pricing={pricing} promoCode={null} />);
    expect(screen.queryByTestId('summary-store-credit')).toBeNull();
  });
});
