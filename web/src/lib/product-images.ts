/**
 * Product pictures are referenced by key (storefront §3). A key is a file served from /api/public
 * ("surfy-surface.svg", with or without ".svg"); a picture uploaded in the back office ("upl-…") is served
 * from /uploads in web widths; an absolute path passes through. An unknown key falls back to the generic
 * product picture and logs a warning.
 */
import { isUploadedImage, UPLOADED_IMAGE_WIDTHS, uploadedImageUrl } from '@nh/shared/contracts/product-images';

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
  if (isUploadedImage(trimmed) && /^upl-[0-9a-f]{20}$/.test(trimmed)) return uploadedImageUrl(trimmed, 640);
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

/** The `srcset` of an uploaded picture (every stored width), or undefined for other keys. */
export function productImageSrcSet(key: string | null | undefined): string | undefined {
  const name = key?.trim();
  if (!name || !/^upl-[0-9a-f]{20}$/.test(name)) return undefined;
  return UPLOADED_IMAGE_WIDTHS.map((w) => `${uploadedImageUrl(name, w)} ${w}w`).join(', ');
}
