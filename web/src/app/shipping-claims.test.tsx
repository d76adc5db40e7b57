/**
 * One rule behind every shipping claim (issue 25): the banner, footer, product Shipping tab, trust
 * badge, FAQ and legal shipping page render their figures from the shipping rule checkout charges
 * (shared/src/shipping-rules.ts), and follow it when it changes. shared/src/shipping-claims.test.ts
 * proves the rule's phrases are what quoteShipping charges.
 */
import { HOME_ZONE, SHIPPING_ZONES, type ShippingZone } from '@nh/shared/shipping-rules';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SiteFooter } from '@/app/layout/site-footer';
import { ProductPromises } from '@/features/catalog/components/product-view/product-promises';
import { ShippingPanel } from '@/features/catalog/components/product-view/shipping-panel';
import { HomePage } from '@/features/catalog/routes/home';
import { faqGroups } from '@/features/content/faq-content';
import { findLegalPage } from '@/features/content/legal/legal-pages';
import LegalRoute from '@/features/content/routes/legal';
import SupportPage from '@/features/content/routes/support';
import { renderRoute, stubFetch } from '@/testing/render-route';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** The rule with the contiguous zone changed: $7.95, free over $75, no express. */
const CHANGED_HOME: ShippingZone = { ...HOME_ZONE, standard: { rate: 795, promise: '4-6 business days' }, freeOver: 7500, express: null };
const CHANGED_ZONES = [CHANGED_HOME, ...SHIPPING_ZONES.filter((zone) => zone.id !== HOME_ZONE.id)];

const text = () => document.body.textContent ?? '';

function renderInRouter(node: React.ReactNode) {
  return render(<MemoryRouter>{node}</MemoryRouter>);
}

function renderHome(zone?: ShippingZone) {
  stubFetch({ '/api/categories': 'pending', '/api/blog': 'pending', '/api/impact': 'pending' });
  return renderRoute('/', '/', () => <HomePage shippingZone={zone} />);
}

describe('every storefront claim quotes the rule checkout charges: free over $50, $9.99', () => {
  it('home banner', () => {
    renderHome();
    expect(screen.getByText('Free shipping on orders over $50')).toBeTruthy();
    expect(text()).not.toContain('$35');
  });

  it('footer', () => {
    renderInRouter(<SiteFooter />);
    expect(screen.getByText('Free shipping on orders over $50')).toBeTruthy();
    expect(text()).not.toContain('$35');
  });

  it('product Shipping tab, with the other zones and Subscribe & Save', () => {
    render(<ShippingPanel />);
    expect(text()).toContain('Standard Shipping: 5-7 business days, free on orders over $50 ($9.99 on orders of $50 or less)');
    expect(text()).toContain('Express Shipping: 2-3 business days at $9.99');
    for (const line of [
      'Alaska and Hawaii: standard $14.99 (7-10 business days), free over $100; express $29.99 (3-5 business days)',
      'Puerto Rico and US territories: standard $14.99 (7-14 business days), free over $100; no express',
      'Military (APO/FPO/DPO): standard $9.99 (10-21 business days), free over $50; no express',
      'Subscribe & Save deliveries ship free everywhere we ship.',
    ])
      expect(screen.getByText(line)).toBeTruthy();
    expect(text()).not.toContain('$35');
  });

  it('trust badge', () => {
    render(<ProductPromises />);
    expect(screen.getByText('Free Shipping on orders over $50')).toBeTruthy();
  });

  it('FAQ, with the Alaska and Hawaii answer the zone’s promise and rate', async () => {
    renderRoute('/support', '/support', SupportPage);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Do you offer free shipping?' }));
    await user.click(screen.getByRole('button', { name: 'How long does shipping take?' }));
    await user.click(screen.getByRole('button', { name: 'Do you ship outside the United States?' }));
    expect(screen.getByText(/Shipping is free on orders over \$50 \(Contiguous US\), and every Subscribe & Save delivery ships free\./)).toBeTruthy();
    expect(screen.getByText(/Deliveries to Alaska and Hawaii take 7-10 business days by standard shipping \(\$14\.99, free on orders over \$100\), or 3-5 business days by express \(\$29\.99\)\./)).toBeTruthy();
    expect(screen.getByText(/We do not ship to American Samoa/)).toBeTruthy();
    expect(text()).not.toContain('$35');
    expect(text()).not.toContain('3-7 days');
  });

  it('legal shipping page: the spec’s sentences with the rule’s figures, a table of zones and the places not shipped to', () => {
    renderRoute('/legal/:page', '/legal/shipping', LegalRoute);
    expect(screen.getByText('Orders of $50 or less: standard shipping $9.99.')).toBeTruthy();
    expect(screen.getByText('Orders over $50: free standard shipping.')).toBeTruthy();
    const table = screen.getByRole('table', { name: 'Shipping rates by destination' });
    const rows = [...table.querySelectorAll('tbody tr')].map((row) => [...row.children].map((cell) => cell.textContent));
    expect(rows).toEqual([
      ['Contiguous US', '$9.99, 5-7 business days', 'Orders over $50', '$9.99, 2-3 business days'],
      ['Alaska and Hawaii', '$14.99, 7-10 business days', 'Orders over $100', '$29.99, 3-5 business days'],
      ['Puerto Rico and US territories', '$14.99, 7-14 business days', 'Orders over $100', 'Not offered'],
      ['Military (APO/FPO/DPO)', '$9.99, 10-21 business days', 'Orders over $50', 'Not offered'],
    ]);
    expect(screen.getByText(/We do not ship to American Samoa, the Northern Mariana Islands, .* or Palau yet/)).toBeTruthy();
    expect(text()).not.toContain('$35');
    expect(text()).not.toContain('$9.95');
  });
});

describe('the claims follow the rule when it changes', () => {
  it('banner, footer, Shipping tab and trust badge', () => {
    renderHome(CHANGED_HOME);
    expect(screen.getByText('Free shipping on orders over $75')).toBeTruthy();
    cleanup();

    renderInRouter(<SiteFooter shippingZone={CHANGED_HOME} />);
    expect(screen.getByText('Free shipping on orders over $75')).toBeTruthy();
    cleanup();

    render(<ShippingPanel zones={CHANGED_ZONES} />);
    expect(text()).toContain('Standard Shipping: 4-6 business days, free on orders over $75 ($7.95 on orders of $75 or less)');
    expect(text()).not.toContain('Express Shipping');
    cleanup();

    render(<ProductPromises shippingZone={CHANGED_HOME} />);
    expect(screen.getByText('Free Shipping on orders over $75')).toBeTruthy();
  });

  it('drops the free-shipping claims where standard shipping is never free', () => {
    const never: ShippingZone = { ...HOME_ZONE, freeOver: null };
    renderInRouter(<SiteFooter shippingZone={never} />);
    expect(text()).not.toContain('Free shipping on orders');
    cleanup();
    render(<ProductPromises shippingZone={never} />);
    expect(text()).not.toContain('Free Shipping');
  });

  it('FAQ and legal shipping page', () => {
    const faq = JSON.stringify(faqGroups(CHANGED_ZONES));
    expect(faq).toContain('Shipping is free on orders over $75 (Contiguous US)');
    expect(faq).not.toContain('over $50 (Contiguous US)');

    const legal = JSON.stringify(findLegalPage('shipping', CHANGED_ZONES));
    expect(legal).toContain('Orders of $75 or less: standard shipping $7.95.');
    expect(legal).toContain('Orders over $75: free standard shipping.');
    expect(legal).toContain('["Contiguous US","$7.95, 4-6 business days","Orders over $75","Not offered"]');
    expect(legal).not.toContain('Express shipping: $9.99');
  });
});
