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
