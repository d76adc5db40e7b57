/**
 * What the sitemap lists, read in one statement (`siteMapRows`): every public product, each category with
 * the latest change of its public products, every published journal article; plus the fixed content and
 * legal pages.
 */
import type { Db } from '@nh/server/db/client';
import { siteMapRows, type SiteMapRow } from '@nh/server/queries/catalog';
import { CONTENT_PAGE_PATHS, LEGAL_LAST_UPDATED, LEGAL_PAGE_SLUGS, sitePaths } from '@nh/shared/contracts/site-map';

export interface SiteMapEntry {
  path: string;
  /** When the page's content last changed, if known (products, categories, articles, the journal and shop lists). */
  lastModified: Date | null;
}

export async function siteMapEntries(db: Db): Promise<SiteMapEntry[]> {
  const rows = await siteMapRows(db);
  const at = (value: Date | string | null) => (value === null ? null : new Date(value));
  const latest = (kind: SiteMapRow['kind']) =>
    rows.filter((r) => r.kind === kind && r.modified).reduce<Date | null>((max, r) => (max && max >= at(r.modified)! ? max : at(r.modified)), null);
  const shopChanged = latest('product');
  const journalChanged = latest('article');
  const listsChanged: Partial<Record<(typeof CONTENT_PAGE_PATHS)[number], Date | null>> = {
    '/': [shopChanged, journalChanged].reduce<Date | null>((max, d) => (d && (!max || d > max) ? d : max), null),
    '/shop': shopChanged,
    '/journal': journalChanged,
  };
  const pathOf = { product: sitePaths.product, category: sitePaths.category, article: sitePaths.article };
  return [
    ...CONTENT_PAGE_PATHS.map((path) => ({ path, lastModified: listsChanged[path] ?? null })),
    ...rows.map((r) => ({ path: pathOf[r.kind](r.slug), lastModified: at(r.modified) })),
    ...LEGAL_PAGE_SLUGS.map((slug) => ({ path: sitePaths.legal(slug), lastModified: new Date(`${LEGAL_LAST_UPDATED}T00:00:00Z`) })),
  ];
}
