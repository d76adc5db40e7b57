/** Review moderation: list, hide (gone from the storefront), show, delete; audited; roles. */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminReviewsPageSchema } from '@nh/shared/contracts/admin-reviews';
import { startTestApi, type TestApi } from './support/harness';
import { signInAs, type StaffClient } from './support/staff';

let api: TestApi;
let manager: StaffClient;
let productId: number;
const reviewIds: number[] = [];

beforeAll(async () => {
  api = await startTestApi();
  manager = await signInAs(api, 'manager');
  const slug = `moderated-${randomUUID().slice(0, 8)}`;
  const { rows } = await api.ctx.db.$client.query<{ id: number }>(
    `insert into products (name, slug, price, inventory, status, category_id) select 'Moderated ' || $1, $1, '9.99', 5, 'active', min(id) from categories returning id`,
    [slug],
  );
  productId = rows[0]!.id;
  for (const [rating, comment] of [
    [5, 'Lovely'],
    [1, 'Spam spam spam'],
  ] as const) {
    const { rows: r } = await api.ctx.db.$client.query<{ id: number }>(
      `insert into reviews (product_id, customer_name, customer_email, rating, comment) values ($1, 'Rev', 'rev@example.com', $2, $3) returning id`,
      [productId, rating, comment],
    );
    reviewIds.push(r[0]!.id);
  }
});
afterAll(() => api.close());

const publicComments = async () => ((await (await api.request(`/api/products/${productId}/reviews`)).json()) as Array<{ comment: string }>).map((r) => r.comment).sort();

describe('review moderation', () => {
  it('lists a product’s reviews with their visibility, filtered by rating', async () => {
    const page = adminReviewsPageSchema.parse(await (await manager.request(`/api/admin/reviews?productId=${productId}`)).json());
    expect(page.total).toBe(2);
    expect(page.reviews.map((r) => [r.comment, r.hidden, r.productName.startsWith('Moderated')])).toEqual([
      ['Spam spam spam', false, true],
      ['Lovely', false, true],
    ]);
    const ones = adminReviewsPageSchema.parse(await (await manager.request(`/api/admin/reviews?productId=${productId}&rating=1`)).json());
    expect(ones.reviews.map((r) => r.comment)).toEqual(['Spam spam spam']);
  });

  it('hides a review from the storefront and shows it again, each audited once', async () => {
    const spam = reviewIds[1]!;
    const hidden = await manager.request(`/api/admin/reviews/${spam}/hide`, { method: 'POST', body: {} });
    expect(await hidden.json()).toMatchObject({ id: spam, hidden: true });
    expect(await publicComments()).toEqual(['Lovely']);
    await manager.request(`/api/admin/reviews/${spam}/hide`, { method: 'POST', body: {} }); // already hidden: nothing recorded
    const onlyHidden = adminReviewsPageSchema.parse(await (await manager.request(`/api/admin/reviews?productId=${productId}&show=hidden`)).json());
    expect(onlyHidden.reviews.map((r) => r.id)).toEqual([spam]);

    expect(await (await manager.request(`/api/admin/reviews/${spam}/show`, { method: 'POST', body: {} })).json()).toMatchObject({ hidden: false });
    expect(await publicComments()).toEqual(['Lovely', 'Spam spam spam']);

    const owner = await signInAs(api, 'owner');
    const audit = (await (await owner.request(`/api/admin/audit?entityType=review&entityId=${spam}`)).json()) as { entries: Array<{ action: string; before: unknown; after: unknown }> };
    expect(audit.entries.map((e) => e.action)).toEqual(['review.shown', 'review.hidden']);
    expect(audit.entries[1]).toMatchObject({ before: { hidden: false }, after: { hidden: true } });
  });

  it('deletes a review (audited with what it said); unknown ids are 404', async () => {
    const spam = reviewIds[1]!;
    expect((await manager.request(`/api/admin/reviews/${spam}`, { method: 'DELETE' })).status).toBe(204);
    expect(await publicComments()).toEqual(['Lovely']);
    expect((await manager.request(`/api/admin/reviews/${spam}`, { method: 'DELETE' })).status).toBe(404);
    const owner = await signInAs(api, 'owner');
    const audit = (await (await owner.request(`/api/admin/audit?entityType=review&entityId=${spam}&action=review.deleted`)).json()) as { entries: Array<{ before: Record<string, unknown> }> };
    expect(audit.entries[0]!.before).toMatchObject({ comment: 'Spam spam spam', rating: 1 });
  });

  it('answers 400 for a bad filter and 403 to support', async () => {
    const bad = await manager.request('/api/admin/reviews?show=maybe');
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ message: 'Show must be all, visible or hidden' });
    const support = await signInAs(api, 'support');
    expect((await support.request(`/api/admin/reviews/${reviewIds[0]}/hide`, { method: 'POST', body: {} })).status).toBe(403);
  });
});
