/** Shop fixtures shared by the browser tests: a product of their own, a page with a cart, the checkout form. */
import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { STORAGE_KEYS, type CartItem } from '@nh/shared';
import type { E2eApp } from './app';
import { seedLocalStorage } from './page-helpers';

export interface E2eProduct {
  id: number;
  name: string;
  slug: string;
}

/** An active $20.00 product with 100 in stock, named `${label} xxxxxx` so test files never share one. */
export async function createE2eProduct(app: E2eApp, label: string): Promise<E2eProduct> {
  const name = `${label} ${randomUUID().slice(0, 6)}`;
  const slug = name.toLowerCase().replace(/\s+/g, '-');
  const { rows } = await app.api.ctx.db.$client.query<{ id: number }>(
    `insert into products (name, slug, price, inventory, status) values ($1, $2, '20.00', 100, 'active') returning id`,
    [name, slug],
  );
  return { id: rows[0]!.id, name, slug };
}

/** A new page whose cart holds `quantity` of `product` from its first document on. */
export async function newPageWithCart(app: E2eApp, product: E2eProduct, quantity: number): Promise<Page> {
  const page = await app.newPage();
  const cart: CartItem[] = [{ productId: product.id, variantSku: null, name: product.name, price: 2000, quantity, slug: product.slug }];
  await seedLocalStorage(page, {
    [STORAGE_KEYS.cart]: JSON.stringify(cart),
    // The newsletter popup opens after a few seconds and would cover the page on a slow machine.
    [STORAGE_KEYS.emailPopupDismissed]: 'dismissed',
  });
  return page;
}

export interface CheckoutCustomer {
  firstName: string;
  lastName: string;
  email: string;
  address: string;
  city: string;
  state: string;
  zip: string;
}

/** Fills every checkout field, paying with the sandbox's Visa test card. */
export async function fillCheckoutForm(page: Page, customer: CheckoutCustomer): Promise<void> {
  await page.getByLabel('First Name').fill(customer.firstName);
  await page.getByLabel('Last Name').fill(customer.lastName);
  await page.getByLabel('Email').fill(customer.email);
  await page.getByLabel('Address').fill(customer.address);
  await page.getByLabel('City').fill(customer.city);
  await page.getByLabel('State').fill(customer.state);
  await page.getByLabel('ZIP Code').fill(customer.zip);
  await page.getByLabel('Card Number').fill('4111 1111 1111 1111');
  await page.getByLabel('Expiration Date').fill('12/30');
  await page.getByLabel('CVV').fill('123');
}

/** Creates an account on the API's own sign-in page (the page open at /api/login); it signs the shopper in and goes home. */
export async function registerShopper(page: Page, email: string): Promise<void> {
  await page.locator('#register-first').fill('Rachel');
  await page.locator('#register-last').fill('Carson');
  await page.locator('#register-email').fill(email);
  await page.locator('#register-password').fill('silent-spring-1962');
  await page.getByRole('button', { name: 'Create Account' }).click();
  await page.waitForURL((url) => url.pathname === '/', { timeout: 20_000 });
}

/** An order line as the orders table keeps it. */
export interface E2eOrderLine {
  productId: number;
  productName: string;
  quantity: number;
  /** Unit price, 2-decimal string. */
  price: string;
}

/**
 * An order row written straight to the database (no payment): `lines` at their prices, the total their
 * sum, no shipping or tax, `status`, placed `daysAgo` days ago, to Springfield. Answers its id.
 */
export async function insertE2eOrder(app: E2eApp, o: { email: string; name: string; lines: E2eOrderLine[]; status: string; daysAgo: number; total?: string }): Promise<string> {
  const items = o.lines.map((l) => ({ ...l, variantSku: null, sku: null, itemNumber: null }));
  const total = o.total ?? (o.lines.reduce((sum, l) => sum + Math.round(Number(l.price) * 100) * l.quantity, 0) / 100).toFixed(2);
  const { rows } = await app.api.ctx.db.$client.query<{ id: string }>(
    `insert into orders (store_code, customer_email, customer_name, shipping_address, items, subtotal, shipping, tax, total, status, created_at)
     values ('NH', $1, $2, '{"address":"1 Main St","city":"Springfield","state":"IL","zip":"62701"}', $3, $4, 0, 0, $4, $5, now() - make_interval(days => $6))
     returning id`,
    [o.email, o.name, JSON.stringify(items), total, o.status, o.daysAgo],
  );
  return rows[0]!.id;
}
