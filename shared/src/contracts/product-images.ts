/**
 * Product pictures uploaded in the back office (POST /api/admin/products/images, the image's bytes as
 * the body): checked by content, resized to web sizes, stored as WebP. A product's `images` list holds
 * the upload's name (`upl-<hash>`); the storefront picks a size by width.
 */
export const UPLOADED_IMAGE_PREFIX = 'upl-';
/** Widths stored for each upload, smallest first (the storefront's srcset). */
export const UPLOADED_IMAGE_WIDTHS = [320, 640, 1280] as const;
export const UPLOAD_MAX_BYTES = 8 * 1024 * 1024;
/** Content types an upload may be sent as (the bytes decide what it really is). */
export const UPLOAD_CONTENT_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/avif', 'image/gif'] as const;

export const UPLOAD_MESSAGES = {
  notAnImage: 'That file is not a picture we can use. Upload a JPEG, PNG, WebP, AVIF or GIF image.',
  tooLarge: `Pictures can be at most ${UPLOAD_MAX_BYTES / 1024 / 1024} MB.`,
  tooManyPixels: 'That picture is too large (more than 40 megapixels). Save a smaller copy and upload it.',
  tooSmall: 'Pictures must be at least 200 pixels wide and tall.',
  empty: 'Choose a picture to upload.',
} as const;

/** The URL of one stored width of an uploaded image. */
export const uploadedImageUrl = (name: string, width: (typeof UPLOADED_IMAGE_WIDTHS)[number]): string => `/uploads/products/${name}-${width}.webp`;

export const isUploadedImage = (name: string): boolean => name.startsWith(UPLOADED_IMAGE_PREFIX);

export interface UploadedImage {
  /** What goes in the product's `images` list. */
  image: string;
  width: number;
  height: number;
  /** Stored widths and their URLs. */
  urls: Record<string, string>;
}

/**
 * Product pictures are referenced by key (storefront §3). A key is a file served from /api/public
 * ("surfy-surface.svg", with or without ".svg"); a picture uploaded in the back office ("upl-…") is served
 * from /uploads in web widths; an absolute path passes through. An unknown key falls back to the generic
 * product picture and logs a warning. Used by the storefront and by the server's page heads.
 */
export const PRODUCT_PLACEHOLDER_IMAGE = '/api/public/product-placeholder.svg';
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

