import { count, eq, inArray } from 'drizzle-orm';
import { toCents } from '@nh/shared/money';
import type { Db } from '../db/client';
import * as t from '../db/schema';
import * as data from './data';

/**
 * Loads the demo catalogue. Idempotent: rows are keyed by their natural unique key (slug, name, code)
 * and existing rows are left as they are, so running it twice changes nothing.
 */
export async function seedDemoCatalogue(db: Db): Promise<{ seeded: boolean; products: number }> {
  return db.transaction(async (tx) => {
    // One seeder at a time (start command and tests may race on a fresh database).
    await tx.execute('select pg_advisory_xact_lock(727001)');
    const [existing] = await tx.select({ n: count() }).from(t.products);
    if (existing && existing.n > 0) return { seeded: false, products: existing.n };

    await tx
      .insert(t.categories)
      .values(data.categories.map((c) => ({ name: c.name, slug: c.slug, description: c.description, image: c.image })))
      .onConflictDoNothing();
    const categoryRows = await tx.select({ id: t.categories.id, slug: t.categories.slug }).from(t.categories);
    const categoryId = new Map(categoryRows.map((c) => [c.slug, c.id]));

    await tx
      .insert(t.products)
      .values(
        data.products.map((p) => ({
          name: p.name,
          slug: p.slug,
          description: p.description,
          shortDescription: p.shortDescription,
          price: toCents(p.price),
          compareAtPrice: p.compareAtPrice === null ? null : toCents(p.compareAtPrice),
          images: p.images,
          categoryId: categoryId.get(p.categorySlug) ?? null,
          status: p.status,
          inventory: p.inventory,
          weight: p.weight,
          itemNumber: p.itemNumber,
          sku: p.sku,
          upc: p.upc,
          caseUpc: p.caseUpc,
          size: p.size,
          caseCount: p.caseCount,
          ingredients: p.ingredients,
          features: p.features,
          uses: p.uses,
          benefits: p.benefits,
          instructions: p.instructions,
          cautions: p.cautions,
          kitContents: p.kitContents,
          isStarterKit: p.isStarterKit,
          isBestseller: p.isBestseller,
          isRefill: p.isRefill,
          isFragranceFree: p.isFragranceFree,
          variants: p.variants,
        })),
      )
      .onConflictDoNothing();

    const productRows = await tx
      .select({ id: t.products.id, slug: t.products.slug })
      .from(t.products)
      .where(inArray(t.products.slug, data.products.map((p) => p.slug)));
    const productId = new Map(productRows.map((p) => [p.slug, p.id]));

    const reviewRows = data.reviews.flatMap((r) => {
      const id = productId.get(r.productSlug);
      return id === undefined
        ? []
        : [{ productId: id, customerName: r.customerName, customerEmail: r.customerEmail, rating: r.rating, title: r.title, comment: r.comment, verified: r.verified }];
    });
    if (reviewRows.length) await tx.insert(t.reviews).values(reviewRows);

    await tx
      .insert(t.blogPosts)
      .values(
        data.blogPosts.map((b) => ({
          title: b.title,
          slug: b.slug,
          excerpt: b.excerpt,
          content: b.content,
          image: b.image,
          author: b.author,
          readTime: b.readTime,
          category: b.category,
          published: b.published,
          metaTitle: b.metaTitle,
          metaDescription: b.metaDescription,
          targetKeywords: b.targetKeywords,
          faqs: b.faqs,
          internalLinks: b.internalLinks,
          schemaJsonLd: b.schemaJsonLd,
          createdAt: new Date(b.publishedAt),
          updatedAt: new Date(b.publishedAt),
        })),
      )
      .onConflictDoNothing();

    await tx.insert(t.ingredients).values(data.ingredients).onConflictDoNothing();

    const [impact] = await tx.select({ n: count() }).from(t.impactStats);
    if (!impact?.n) await tx.insert(t.impactStats).values(data.impact);

    await tx.insert(t.promoCodes).values(data.promoCodes).onConflictDoNothing();

    return { seeded: true, products: productRows.length };
  });
}

/** Test helper: the seeded product with this slug (throws when the seed does not have it). */
export async function seededProductId(db: Db, slug: string): Promise<number> {
  const [row] = await db.select({ id: t.products.id }).from(t.products).where(eq(t.products.slug, slug));
  if (!row) throw new Error(`No seeded product ${slug}`);
  return row.id;
}
