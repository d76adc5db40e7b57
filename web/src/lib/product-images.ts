/**
 * Product pictures are referenced by key (storefront §3). A key is a file served from /api/public
 * ("surfy-surface.svg", with or without ".svg"); an uploaded or absolute path passes through. An unknown
 * key falls back to the generic product picture and logs a warning.
 */

export const PRODUCT_PLACEHOLDER_IMAGE = '/api/public/product-placeholder.svg';
export const STARTER_KIT_DEFAULT_IMAGE = '/api/public/starter-kit-default.svg';

const KNOWN_KEYS = new Set([
  'flushy-toilet',
  'dishy-pods',
  'sinky-sink',
  'moppy-surface',
  'laundry-pods',
  'surfy-surface',
  'glassy-glass',
  'fruit-veggie-spray',
  'trashy-garbage',
  'dish-soap',
  'oxy-boost',
  'stain-remover',
  'essential-starter-kit',
  'complete-starter-kit',
  'starter-kit-default',
  // Lifestyle pictures used as secondary gallery images.
  'lifestyle-bathroom',
  'lifestyle-kitchen',
  'lifestyle-laundry',
  'lifestyle-living',
]);

const warned = new Set<string>();

/** Resolves an image key to a URL, or null when the key is unknown (logged once per key). */
export function resolveImageKey(key: string | null | undefined): string | null {
  if (!key) return null;
  const trimmed = key.trim();
  if (/^(https?:)?\/\//.test(trimmed) || trimmed.startsWith('/')) return trimmed;
  const name = trimmed.replace(/\.svg$/i, '');
  if (KNOWN_KEYS.has(name)) return `/api/public/${name}.svg`;
  if (!warned.has(trimmed)) {
    warned.add(trimmed);
    console.warn(`Unknown product image key "${trimmed}"; showing the generic product image`);
  }
  return null;
}

/** URL for a product picture key, with the generic fallback. */
export function productImageUrl(key: string | null | undefined): string {
  return resolveImageKey(key) ?? PRODUCT_PLACEHOLDER_IMAGE;
}

/** The main picture of a product (first image), with the generic fallback. */
export function mainProductImage(images: readonly string[] | null | undefined): string {
  return productImageUrl(images?.[0]);
}

/** Swaps a broken <img> to the generic picture once. */
export function showFallbackImage(event: { currentTarget: HTMLImageElement }, fallback = PRODUCT_PLACEHOLDER_IMAGE) {
  const img = event.currentTarget;
  if (!img.src.endsWith(fallback)) img.src = fallback;
}
