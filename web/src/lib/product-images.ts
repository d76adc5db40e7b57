/**
 * Product pictures are referenced by key (storefront §3). A key is a file served from /api/public
 * ("surfy-surface.svg", with or without ".svg"); a picture uploaded in the back office ("upl-…") is served
 * from /uploads in web widths; an absolute path passes through. An unknown key falls back to the generic
 * product picture and logs a warning.
 */
import { PRODUCT_PLACEHOLDER_IMAGE, UPLOADED_IMAGE_WIDTHS, uploadedImageUrl } from '@nh/shared/contracts/product-images';

// The key rule is shared with the server (link previews name the product picture in the page's head).
export { mainProductImage, PRODUCT_PLACEHOLDER_IMAGE, productImageUrl, resolveImageKey } from '@nh/shared/contracts/product-images';

export const STARTER_KIT_DEFAULT_IMAGE = '/api/public/starter-kit-default.svg';

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
