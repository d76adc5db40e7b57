/**
 * The prices the order write path prices a cart with: one row per product, read from Postgres and
 * kept in-process for CATALOG_CACHE_SECONDS (like the catalogue answers), so placing an order costs no
 * read of the catalogue. A cached row is never trusted blindly: the reservation guard
 * (`reserve_order_stock`) re-checks price and variants on the locked row in the order's own
 * transaction, and any refusal is decided on a fresh read.
 */
import { toCents, type Cents } from '@nh/shared';
import type { Db } from '@nh/server/db/client';
import type { ProductVariant } from '@nh/server/db/schema';
import { readProductPrices } from '@nh/server/queries/catalog';
import type { AppContext } from '../../lib/context';
import { perApp } from '../../lib/per-app';

export interface PricedProduct {
  id: number;
  name: string;
  status: string;
  price: Cents;
  /** As stored (numeric text): what the guard compares the locked row with. */
  priceText: string;
  variants: ProductVariant[];
  /** As stored (jsonb text): what the guard compares the locked row with. */
  variantsJson: string;
  sku: string | null;
  itemNumber: string | null;
  /** A tax provider's product tax code (products.tax_code); null: general goods. */
  taxCode: string | null;
  /** Stock when read: only for naming a refusal, never for deciding a sale. */
  inventory: number;
}

/** A line as the server sells it, from the catalogue row (one place for checkout, plans and the bulk swap). */
export { catalogueLine } from '@nh/server/db/catalogue-line';

interface Entry {
  product: PricedProduct | null;
  expiresAt: number;
}

export class PriceList {
  private readonly entries = new Map<number, Entry>();

  constructor(
    private readonly pool: Db['$client'],
    private readonly ttlMs: number,
  ) {}

  /** The products with these ids (unknown ids are absent); `fresh` reads past the cache. */
  async get(ids: readonly number[], options: { fresh?: boolean } = {}): Promise<Map<number, PricedProduct>> {
    const now = Date.now();
    const found = new Map<number, PricedProduct>();
    const missing: number[] = [];
    for (const id of ids) {
      const entry = options.fresh ? undefined : this.entries.get(id);
      if (entry && entry.expiresAt > now) {
        if (entry.product) found.set(id, entry.product);
      } else missing.push(id);
    }
    if (missing.length === 0) return found;

    const rows = await readProductPrices(this.pool, missing);
    const expiresAt = now + this.ttlMs;
    for (const id of missing) this.entries.set(id, { product: null, expiresAt });
    for (const r of rows) {
      const product: PricedProduct = {
        id: r.id,
        name: r.name,
        status: r.status,
        price: toCents(r.price),
        priceText: r.price,
        variants: JSON.parse(r.variants) as ProductVariant[],
        variantsJson: r.variants,
        sku: r.sku,
        itemNumber: r.itemNumber,
        taxCode: r.taxCode,
        inventory: r.inventory,
      };
      this.entries.set(r.id, { product, expiresAt });
      found.set(r.id, product);
    }
    return found;
  }

  clear(): void {
    this.entries.clear();
  }
}

/** The process's price list (TTL `CATALOG_CACHE_SECONDS`). */
export const priceList = perApp((ctx) => new PriceList(ctx.db.$client, ctx.config.CATALOG_CACHE_SECONDS * 1000));

export function clearPriceList(ctx: AppContext): void {
  priceList(ctx).clear();
}
