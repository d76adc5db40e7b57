import { IMPACT_GOAL_PROGRESS, SHOP } from '@nh/shared';
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import ImpactPage from './routes/impact';
import IngredientsPage from './routes/ingredients';
import LegalRoute from './routes/legal';
import NotFoundPage from './routes/not-found';
import SupportPage from './routes/support';
import { renderRoute, stubFetch } from '@/testing/render-route';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('impact dashboard', () => {
  it('shows the API figures with goal progress fixed at 85, 72 and 50 percent', async () => {
    stubFetch({ '/api/impact': { status: 200, body: { bottlesSaved: 2_345_678, chemicalsAvoided: 61_500, homesHelped: 999, updatedAt: '2025-01-01T00:00:00Z' } } });
    renderRoute('/impact', '/impact', ImpactPage);
    expect((await screen.findByTestId('impact-bottlesSaved')).textContent).toBe('2.3M+');
    expect(screen.getByTestId('impact-chemicalsAvoided').textContent).toBe('61K+');
    expect(screen.getByTestId('impact-homesHelped').textContent).toBe('999');
    const bars = screen.getAllByRole('progressbar');
    expect(bars.map((bar) => bar.getAttribute('aria-valuenow'))).toEqual(['85', '72', '50']);
    expect(IMPACT_GOAL_PROGRESS).toEqual({ bottlesSaved: 85, chemicalsAvoided: 72, homesHelped: 50 });
  });

  it('uses the fallback figures when the call fails, and shows the 2025 goals', async () => {
    stubFetch({ '/api/impact': { status: 500, body: { message: 'down' } } });
    renderRoute('/impact', '/impact', ImpactPage);
    expect((await screen.findByTestId('impact-bottlesSaved')).textContent).toBe('1.2M+');
    expect(screen.getByTestId('impact-chemicalsAvoided').textContent).toBe('50K+');
    expect(screen.getByTestId('impact-homesHelped').textContent).toBe('25K+');
    const goals = screen.getByRole('heading', { name: 'Our 2025 Goals' }).closest('section')!;
    expect(within(goals).getByText('1.5M')).toBeTruthy();
    expect(within(goals).getByText('75K')).toBeTruthy();
    expect(within(goals).getByText('50K')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Our Commitment' }).parentElement!.textContent).toContain('100K pounds');
  });
});

describe('ingredients', () => {
  it('shows 9 placeholders while loading', () => {
    stubFetch({ '/api/ingredients': 'pending' });
    renderRoute('/ingredients', '/ingredients', IngredientsPage);
    expect(screen.getAllByTestId('ingredient-skeleton')).toHaveLength(9);
  });

  it('groups ingredients by EWG band with Pending for unrated ones', async () => {
    const ingredient = (id: number, name: string, ewgRating: number | null) => ({
      id,
      name,
      ewgRating,
      description: `${name} description`,
      safetyInfo: null,
      source: 'Plants',
      function: 'Cleaning',
      createdAt: '2025-01-01T00:00:00Z',
    });
    stubFetch({ '/api/ingredients': { status: 200, body: [ingredient(1, 'Water', 1), ingredient(2, 'Lemon Oil', 4), ingredient(3, 'Mystery', null)] } });
    renderRoute('/ingredients', '/ingredients', IngredientsPage);
    const excellent = await screen.findByRole('region', { name: /^Excellent/ });
    expect(within(excellent).getByText('Water')).toBeTruthy();
    const good = screen.getByRole('region', { name: /^Good/ });
    expect(within(good).getByText('Lemon Oil')).toBeTruthy();
    const pending = screen.getByRole('region', { name: /^Pending/ });
    expect(within(pending).getByText('Mystery')).toBeTruthy();
    expect(screen.queryByRole('region', { name: /^Moderate concern/ })).toBeNull();
  });
});

describe('support page', () => {
  it('links phone and email, disables Live Chat as coming soon and shows the hours', () => {
    renderRoute('/support', '/support', SupportPage);
    expect(screen.getByRole('link', { name: SHOP.supportPhone }).getAttribute('href')).toBe('tel:+18005550142');
    expect(screen.getByRole('link', { name: SHOP.supportEmail }).getAttribute('href')).toBe(`mailto:${SHOP.supportEmail}`);
    const chat = screen.getByRole<HTMLButtonElement>('button', { name: 'Live Chat' });
    expect(chat.disabled).toBe(true);
    expect(screen.getByText('Coming soon')).toBeTruthy();
    expect(screen.getAllByText(SHOP.supportHours, { exact: false }).length).toBeGreaterThan(0);
    expect(screen.getByRole('link', { name: /Returns Policy/ }).getAttribute('href')).toBe('/legal/returns');
    expect(screen.getByRole('link', { name: /View Ingredients/ }).getAttribute('href')).toBe('/ingredients');
  });

  it('opens FAQ questions independently within and across categories', async () => {
    renderRoute('/support', '/support', SupportPage);
    const user = userEvent.setup();
    const a = screen.getByRole('button', { name: 'How long does shipping take?' });
    const b = screen.getByRole('button', { name: 'Do you offer free shipping?' });
    const c = screen.getByRole('button', { name: 'What is your return policy?' });
    await user.click(a);
    await user.click(b);
    await user.click(c);
    expect([a, b, c].map((el) => el.getAttribute('aria-expanded'))).toEqual(['true', 'true', 'true']);
    expect(screen.getByText(/carrier delivers in 1-5 business days/)).toBeTruthy();
    expect(screen.getByText(/Shipping is free on orders over \$50/)).toBeTruthy();
    await user.click(a);
    expect([a, b, c].map((el) => el.getAttribute('aria-expanded'))).toEqual(['false', 'true', 'true']);
  });

  it('Track Order explains where tracking details are and offers an email link', async () => {
    renderRoute('/support', '/support', SupportPage);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Track Order' }));
    const dialog = await screen.findByRole('dialog', { name: 'Track Your Order' });
    expect(within(dialog).getByRole('link', { name: 'Email Support' }).getAttribute('href')).toBe(`mailto:${SHOP.supportEmail}?subject=Order%20status`);
  });
});

describe('legal pages', () => {
  it('shows a policy with its sections, last-updated date and contact links', () => {
    renderRoute('/legal/:page', '/legal/shipping', LegalRoute);
    expect(screen.getByRole('heading', { level: 1, name: 'Shipping Policy' })).toBeTruthy();
    expect(screen.getByText(/Last updated/).textContent).toContain('January 15, 2025');
    expect(screen.getByText('Orders of $50 or less: standard shipping $9.99.')).toBeTruthy();
    expect(screen.getByRole('table', { name: 'Shipping rates by destination' })).toBeTruthy();
    expect(screen.getByRole('link', { name: SHOP.supportEmail }).getAttribute('href')).toBe(`mailto:${SHOP.supportEmail}`);
    expect(document.title).toContain('Shipping Policy');
  });

  it('shows Page Not Found with a link back to support for an unknown page', () => {
    renderRoute('/legal/:page', '/legal/cookies', LegalRoute);
    expect(screen.getByRole('heading', { name: 'Page Not Found' })).toBeTruthy();
    expect(screen.getByText("The legal page you're looking for doesn't exist.")).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to Support' }).getAttribute('href')).toBe('/support');
  });
});

describe('not-found screen', () => {
  it('reads the two sentences of the spec and links home', () => {
    renderRoute('*', '/nowhere', NotFoundPage);
    expect(screen.getByRole('heading', { name: '404 Page Not Found' })).toBeTruthy();
    expect(screen.getByText('Did you forget to add the page to the router?')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to Home' }).getAttribute('href')).toBe('/');
  });
});
