/**
 * Storefront flows in real Chromium against the real API, database and built SPA (storefront spec §2-§8).
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { poll, seriousAxeViolations, toast, visible } from './support/page-helpers';
import { invalidateCatalogCache } from '../../api/src/modules/catalog';
import { startE2eApp, type E2eApp } from './support/app';
import { createE2eProduct, type E2eProduct } from './support/shop';

let app: E2eApp;
beforeAll(async () => {
  app = await startE2eApp();
});
afterAll(() => app?.close());

const cartCount = (page: Page) => page.getByTestId('cart-count').textContent();
/** The page does not scroll sideways (nothing wider than the viewport). */
const noHorizontalOverflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

describe('storefront: browse, cart and checkout hand-off', () => {
  it('goes home → category → product, picks a variant, adds to cart, changes quantity, survives a reload, proceeds to /checkout', async () => {
    const page = await app.newPage();
    await page.goto('/');
    await visible(page, 'Shop by Category');
    await page.locator('a[href="/shop/laundry"]').first().click();

    await poll(() => page.getByRole('heading', { level: 1, name: 'Laundry' }).isVisible()).toBe(true);
    expect(new URL(page.url()).pathname).toBe('/shop/laundry');
    expect(await page.getByRole('navigation', { name: 'Breadcrumb' }).textContent()).toBe('HomeShopLaundry');
    await visible(page, /^\d+ products?$/);

    await page.getByRole('link', { name: 'Washy Probiotic Laundry Pods' }).first().click();
    await poll(() => page.getByRole('heading', { level: 1, name: 'Washy Probiotic Laundry Pods' }).isVisible()).toBe(true);
    await visible(page, 'Choose Size');
    expect(await page.getByTestId('product-price').textContent()).toBe('$16.99');

    // Structured data, as a crawler fetches the page (the server writes it into the head): USD, price valid for one year.
    const served = await (await page.request.get(page.url(), { headers: { accept: 'text/html' } })).text();
    const blocks = [...served.matchAll(/<script type="application\/ld\+json">([^<]*)<\/script>/g)].map((m) => JSON.parse(m[1]!) as { '@type': string });
    const jsonLd = blocks.find((b) => b['@type'] === 'Product') as unknown as {
      offers: { priceCurrency: string; priceValidUntil: string };
    };
    expect(jsonLd.offers.priceCurrency).toBe('USD');
    const validUntil = new Date(jsonLd.offers.priceValidUntil).getTime();
    expect(Math.abs(validUntil - (Date.now() + 365 * 24 * 3600 * 1000))).toBeLessThan(3 * 24 * 3600 * 1000);

    await page.getByTestId('variant-select').click();
    await page.getByRole('option', { name: /64 loads/ }).click();
    await poll(() => page.getByTestId('product-price').textContent()).toBe('$29.99');
    // Subscribe & Save: 15% off the chosen variant ($29.99 - $4.50).
    expect(await page.getByTestId('subscription-price').textContent()).toContain('$25.49');

    await page.getByRole('button', { name: 'Add to Cart' }).click();
    await toast(page, 'Added to cart', 'Washy Probiotic Laundry Pods added to your cart.');
    await poll(() => cartCount(page)).toBe('1');
    expect(await page.getByTestId('cart-announcement').textContent()).toBe(
      'Added Washy Probiotic Laundry Pods - 64 loads to cart. Cart now has 1 item(s).',
    );

    await page.getByTestId('cart-button').click();
    const drawer = page.getByTestId('cart-drawer');
    await poll(() => drawer.getByText('Shopping Cart').isVisible()).toBe(true);
    expect(await drawer.getByText('Washy Probiotic Laundry Pods - 64 loads').isVisible()).toBe(true);
    expect(await drawer.getByText('Probiotic Formula').isVisible()).toBe(true);
    await drawer.getByRole('button', { name: 'Increase quantity of Washy Probiotic Laundry Pods - 64 loads' }).click();
    await poll(() => drawer.getByTestId('cart-line-quantity').textContent()).toBe('2');
    expect(await drawer.getByTestId('cart-total').textContent()).toBe('$59.98');
    expect(await page.getByTestId('cart-announcement').textContent()).toBe('Updated Washy Probiotic Laundry Pods - 64 loads quantity');

    await page.reload();
    await poll(() => cartCount(page)).toBe('2');
    await page.getByTestId('cart-button').click();
    await poll(() => page.getByTestId('cart-line-quantity').textContent()).toBe('2');
    await page.getByRole('button', { name: 'Proceed to Checkout' }).click();
    await poll(() => new URL(page.url()).pathname).toBe('/checkout');
    await poll(() => page.getByTestId('cart-drawer').count()).toBe(0);
  });

  it('empties the cart from the drawer and shows the empty state', async () => {
    const page = await app.newPage();
    await page.goto('/product/glassy-streak-free-glass-cleaner');
    await page.getByRole('button', { name: 'Add to Cart' }).click();
    await page.getByTestId('cart-button').click();
    await page.getByRole('button', { name: 'Remove Glassy Streak-Free Glass Cleaner' }).click();
    await visible(page, 'Your cart is empty');
    expect(await page.getByTestId('cart-announcement').textContent()).toBe('Removed Glassy Streak-Free Glass Cleaner from cart');
    await page.getByRole('link', { name: 'Shop Now' }).click();
    await poll(() => new URL(page.url()).pathname).toBe('/shop');
  });

  it('quick-adds from the shop listing and filters to starter kits', async () => {
    const page = await app.newPage();
    await page.goto('/shop');
    await visible(page, 'All Nurture Home Products');
    await visible(page, 'Featured Starter Kits');
    // The header is transparent over the shop hero until the page scrolls past 24 px.
    const header = page.locator('header[data-transparent]');
    expect(await header.getAttribute('data-transparent')).toBe('true');
    await page.evaluate(() => window.scrollTo(0, 200));
    await poll(() => header.getAttribute('data-transparent')).toBe('false');
    await page.evaluate(() => window.scrollTo(0, 0));
    await poll(() => header.getAttribute('data-transparent')).toBe('true');

    await page.getByRole('button', { name: 'Quick add Glassy Streak-Free Glass Cleaner to cart' }).click();
    await toast(page, 'Added to cart', 'Glassy Streak-Free Glass Cleaner added to your cart.');

    await page.getByRole('link', { name: 'Starter Kits', exact: true }).first().click();
    await poll(() => page.getByRole('heading', { level: 1, name: 'Starter Kits' }).isVisible()).toBe(true);
    expect(await page.getByText('Featured Starter Kits').count()).toBe(0);
    await visible(page, '2 products');
    expect(await page.title()).toBe('Starter Kits | Nurture Home');
    expect(await page.locator('link[rel="canonical"]').getAttribute('href')).toBe(`${app.url}/shop?filter=starter`);
  });

  it("marks an out-of-stock product 'Out of Stock' and shows the not-found screens", async () => {
    const page = await app.newPage();
    await page.goto('/product/trashy-garbage-can-deodorizer');
    const button = page.getByRole('button', { name: 'Out of Stock' });
    await poll(() => button.isVisible()).toBe(true);
    expect(await button.isDisabled()).toBe(true);

    await page.goto('/product/no-such-product');
    await visible(page, 'Product Not Found');
    await visible(page, "The product you're looking for doesn't exist.");
    await page.getByRole('link', { name: 'Back to Shop' }).click();
    await poll(() => new URL(page.url()).pathname).toBe('/shop');

    await page.goto('/category/no-such-category');
    await visible(page, 'Category Not Found');
    await visible(page, "The category you're looking for doesn't exist.");
    // No hero under the header on the not-found view: it stays solid.
    expect(await page.locator('header[data-transparent]').getAttribute('data-transparent')).toBe('false');
  });
});

describe('storefront: home page', () => {
  it('fades the impact counters in once visible, with 0.5 s and 1 s delays, and hides the third journal card at medium width', async () => {
    const page = await app.newPage({ viewport: { width: 800, height: 900 } });
    await page.goto('/');
    await visible(page, 'Shop by Category');
    const counters = page.getByTestId('impact-counters').locator(':scope > div');
    const opacities = () => counters.evaluateAll((els) => els.map((el) => getComputedStyle(el).opacity));
    expect(await opacities()).toEqual(['0', '0', '0']);
    expect(await counters.evaluateAll((els) => els.map((el) => getComputedStyle(el).transitionDelay))).toEqual(['0s', '0.5s', '1s']);
    await page.getByTestId('impact-counters').scrollIntoViewIfNeeded();
    await poll(opacities).toEqual(['1', '1', '1']);
    expect(await page.getByTestId('impact-counters').textContent()).toMatch(/\d(\.\d)?[MK]\+/);

    const cards = page.getByTestId('journal-card');
    await poll(() => cards.count()).toBe(3);
    expect(await cards.nth(1).isVisible()).toBe(true);
    expect(await cards.nth(2).isVisible()).toBe(false);
    await page.setViewportSize({ width: 1280, height: 900 });
    await poll(() => cards.nth(2).isVisible()).toBe(true);
  });
});

describe('storefront: product page details', () => {
  it('switches gallery pictures, shows the shipping tab, copies the share link and lists a kit', async () => {
    const page = await app.newPage();
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.goto('/product/surfy-probiotic-all-purpose-cleaner');
    const main = page.getByTestId('product-main-image');
    await poll(() => main.getAttribute('src')).toBe('/api/public/surfy-surface.svg');
    await page.getByRole('button', { name: /Show image 2 of/ }).click();
    await poll(() => main.getAttribute('src')).toBe('/api/public/lifestyle-kitchen.svg');

    for (const text of ['30-Day Guarantee', 'Free Shipping on orders over $50', '100% Natural', 'Cruelty Free']) await visible(page, text);

    await page.getByRole('tab', { name: 'Shipping' }).click();
    const panel = page.getByRole('tabpanel');
    await poll(async () => (await panel.textContent())?.includes('5-7 business days, free on orders over $50')).toBe(true);
    expect(await panel.textContent()).toContain('2-3 business days at $9.99');
    expect(await panel.textContent()).toContain('Alaska and Hawaii: standard $14.99');
    expect(await panel.textContent()).not.toContain('$35');

    await page.getByRole('button', { name: 'Share' }).click();
    for (const item of ['Copy link', 'Facebook', 'X', 'LinkedIn'])
      expect(await page.getByRole('menuitem', { name: item, exact: true }).isVisible()).toBe(true);
    await page.getByRole('menuitem', { name: 'Copy link' }).click();
    await toast(page, 'Link copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${app.url}/product/surfy-probiotic-all-purpose-cleaner`);

    await page.goto('/product/essential-starter-kit');
    await visible(page, "What's Included");
    await visible(page, 'Starter Kit');
    expect(await page.getByRole('link', { name: 'Surfy Probiotic All-Purpose Cleaner' }).count()).toBeGreaterThan(0);
  });
});

describe('storefront: wishlist and reviews', () => {
  it('toggles the wishlist with its toasts and keeps it in local storage', async () => {
    const page = await app.newPage();
    await page.goto('/product/sprouty-fruit-and-veggie-wash');
    await page.getByRole('button', { name: 'Add to Wishlist' }).click();
    await toast(page, 'Added to wishlist');
    await poll(() => page.getByRole('button', { name: 'In Wishlist' }).isVisible()).toBe(true);
    const saved = await page.evaluate(() => JSON.parse(localStorage.getItem('wishlist') ?? '[]') as { slug: string }[]);
    expect(saved.map((e) => e.slug)).toEqual(['sprouty-fruit-and-veggie-wash']);

    await page.reload();
    await page.getByRole('button', { name: 'In Wishlist' }).click();
    await toast(page, 'Removed from wishlist');
    await poll(() => page.evaluate(() => localStorage.getItem('wishlist'))).toBe('[]');
  });

  it('shows every review validation message, then submits a valid review', async () => {
    const page = await app.newPage();
    await page.goto('/product/sinky-probiotic-sink-drain-cleaner');
    await page.getByRole('tab', { name: /^Reviews \(\d+\)$/ }).click();
    await page.getByRole('button', { name: 'Submit Review' }).click();
    for (const message of [
      'Please select a rating',
      'Name is required',
      'Valid email is required',
      'Review must be at least 10 characters',
    ])
      await visible(page, message);

    await page.getByLabel('Review', { exact: true }).fill('too short');
    await page.getByRole('button', { name: 'Submit Review' }).click();
    await visible(page, 'Review must be at least 10 characters');

    await page.getByRole('radio', { name: '5 stars' }).click();
    await page.getByLabel('Name').fill('Robin E2E');
    await page.getByLabel('Email').fill('robin.e2e@example.com');
    await page.getByLabel('Title (optional)').fill('Drains run free');
    await page.getByLabel('Review', { exact: true }).fill('No more slow drain and no more smell after a week of use.');
    await page.getByRole('button', { name: 'Submit Review' }).click();
    await toast(page, 'Review submitted!', 'Thank you for your feedback. Your review will appear shortly.');
    // The form resets.
    await poll(() => page.getByLabel('Name').inputValue()).toBe('');
  });

  it('labels a review reached with an orderId as a verified purchase', async () => {
    const page = await app.newPage();
    await page.goto('/product/sinky-probiotic-sink-drain-cleaner?orderId=NH-TEST-1');
    await page.getByRole('tab', { name: /^Reviews/ }).click();
    await poll(async () => (await page.getByTestId('verified-purchase-label').textContent())?.trim()).toBe('Verified Purchase');
    await page.getByRole('radio', { name: '4 stars' }).click();
    await page.getByLabel('Name').fill('Vera E2E');
    await page.getByLabel('Email').fill('vera.e2e@example.com');
    await page.getByLabel('Review', { exact: true }).fill('Bought it with my first order, works as promised.');
    await page.getByRole('button', { name: 'Submit Review' }).click();
    await toast(page, 'Review submitted!', 'Thank you for your verified purchase review!');
  });
});

describe('storefront: product ratings (issue 19)', () => {
  it("shows each card the product's own rating, the same as its page, and no rating for a product without reviews", async () => {
    const rated = await createE2eProduct(app, 'E2E Rated Cleaner');
    const unrated = await createE2eProduct(app, 'E2E Unrated Cleaner');
    await app.api.ctx.db.$client.query(
      `insert into reviews (product_id, customer_name, customer_email, rating, comment)
       values ($1, 'Ann', 'ann@example.com', 5, 'Cleans the counters well.'), ($1, 'Ben', 'ben@example.com', 4, 'Good, a little strong.')`,
      [rated.id],
    );
    invalidateCatalogCache(app.api.ctx);

    const page = await app.newPage();
    await page.goto('/shop');
    const card = (product: E2eProduct) => page.getByTestId('product-card').filter({ has: page.getByRole('link', { name: product.name, exact: true }) });
    await card(rated).waitFor();
    expect(await card(rated).getByTestId('product-card-rating').textContent()).toBe('4.5 (2)');
    expect(await card(unrated).getByTestId('product-card-rating').count()).toBe(0);
    expect(await page.getByText('4.8 (127)').count()).toBe(0);

    await page.goto(`/product/${rated.slug}`);
    await poll(() => page.getByTestId('product-rating').textContent()).toBe('4.5 (2 reviews)');
    await page.goto(`/product/${unrated.slug}`);
    await poll(() => page.getByTestId('product-rating').textContent()).toBe('No reviews yet');
  });
});

describe('storefront: newsletter', () => {
  const submit = async (page: Page, email: string) => {
    await page.getByLabel('Email address').first().fill(email);
    await page.getByRole('button', { name: 'Subscribe', exact: true }).click();
  };

  it('rejects an empty and a malformed address, subscribes a new one, and accepts a duplicate', async () => {
    const page = await app.newPage();
    await page.goto('/');
    await page.locator('#newsletter-email').scrollIntoViewIfNeeded();

    await submit(page, '');
    await toast(page, 'Email required', 'Please enter your email address.');
    await submit(page, 'not an email@x');
    await toast(page, 'Invalid email', 'Please enter a valid email address.');

    const email = `e2e-${Date.now()}@example.com`;
    await submit(page, email);
    await toast(page, 'Success!', "You've been subscribed to our newsletter.");
    await poll(() => page.locator('#newsletter-email').inputValue()).toBe('');

    await submit(page, email);
    await toast(page, 'Success!', "You've been subscribed to our newsletter.");
  });
});

describe('storefront: exit-intent newsletter popup', () => {
  it('opens when the pointer leaves through the top, subscribes, and never shows again', async () => {
    const page = await app.newPage();
    await page.goto('/journal');
    const leave = () => page.evaluate(() => document.documentElement.dispatchEvent(new MouseEvent('mouseleave', { clientY: 0 })));
    const popup = page.getByTestId('newsletter-popup');
    // Repeat until the frame has mounted its listener (it opens at most once anyway).
    await poll(async () => (await leave(), popup.isVisible())).toBe(true);
    await popup.getByLabel('Email address').fill(`popup-${Date.now()}@example.com`);
    await popup.getByRole('button', { name: 'Get My 15% Off' }).click();
    await toast(page, 'Welcome aboard!', 'Check your email for your 15% discount code.');
    expect(await page.evaluate(() => localStorage.getItem('emailPopupDismissed'))).toBe('subscribed');
    await page.reload();
    await leave();
    await page.waitForTimeout(500);
    expect(await page.getByTestId('newsletter-popup').count()).toBe(0);
  });
});

describe('storefront: phone width (360 px)', () => {
  it('lays out home and product without sideways scrolling and works with the mobile menu', async () => {
    const page = await app.newPage({ viewport: { width: 360, height: 740 } });
    await page.goto('/');
    await visible(page, 'Shop by Category');
    expect(await noHorizontalOverflow(page)).toBe(true);

    await page.getByRole('button', { name: 'Open menu' }).click();
    const menu = page.getByRole('navigation', { name: 'Mobile' });
    await poll(() => menu.isVisible()).toBe(true);
    for (const label of ['Shop', 'Ingredients', 'How It Works', 'Journal', 'Sustainability', 'Log In'])
      expect(await menu.getByText(label, { exact: true }).isVisible()).toBe(true);
    await menu.getByRole('link', { name: 'Shop', exact: true }).click();
    await poll(() => new URL(page.url()).pathname).toBe('/shop');

    await page.goto('/product/surfy-probiotic-all-purpose-cleaner');
    await poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Surfy Probiotic All-Purpose Cleaner');
    expect(await noHorizontalOverflow(page)).toBe(true);
    await page.getByRole('button', { name: 'Increase quantity' }).click();
    await page.getByRole('button', { name: 'Add to Cart' }).click();
    await poll(() => cartCount(page)).toBe('2');
  });
});

describe('storefront: accessibility (axe-core)', () => {
  /** Serious and critical axe-core violations on the current page (WCAG 2 A/AA rules). */
  const seriousViolations = (page: Page) => seriousAxeViolations(page, ['wcag2a', 'wcag2aa']);

  it('starts keyboard navigation with the skip link to the main content', async () => {
    const page = await app.newPage();
    await page.goto('/');
    await visible(page, 'Shop by Category');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to main content');
    await page.keyboard.press('Enter');
    await poll(() => page.evaluate(() => document.activeElement?.id)).toBe('main-content');
  });

  it('finds no serious violations on home, shop, product and the open cart drawer', async () => {
    const page = await app.newPage();
    for (const [path, ready] of [
      ['/', 'Shop by Category'],
      ['/shop', 'Featured Starter Kits'],
      ['/product/surfy-probiotic-all-purpose-cleaner', 'Choose Size'],
    ] as const) {
      await page.goto(path);
      await visible(page, ready);
      // Let the impact counters finish fading in so contrast is measured on the final colours.
      await page.waitForTimeout(1500);
      expect(await seriousViolations(page), path).toEqual([]);
    }
    await page.getByRole('button', { name: 'Add to Cart' }).click();
    await page.getByTestId('cart-button').click();
    await visible(page, 'Proceed to Checkout');
    await page.waitForTimeout(500);
    expect(await seriousViolations(page), 'cart drawer').toEqual([]);
  });
});
