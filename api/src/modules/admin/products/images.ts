/**
 * Product picture uploads: the bytes are checked by their content (sharp reads the real format, not the
 * name or the Content-Type), size- and pixel-limited, then resized to web widths as WebP and stored
 * through the file storage (@nh/server storage: the uploads folder, or the bucket's `uploads/` prefix),
 * served back at /uploads by app.ts. The name is the content's hash: uploading a picture twice stores it
 * once.
 */
import { createHash } from 'node:crypto';
import express, { Router } from 'express';
import sharp from 'sharp';
import {
  UPLOAD_CONTENT_TYPES,
  UPLOAD_MAX_BYTES,
  UPLOAD_MESSAGES,
  UPLOADED_IMAGE_PREFIX,
  UPLOADED_IMAGE_WIDTHS,
  uploadedImageUrl,
  type UploadedImage,
} from '@nh/shared/contracts/product-images';
import type { FileStorage } from '@nh/server/storage';
import type { AppContext } from '../../../lib/context';
import { AppError } from '../../../lib/errors';
import { inspectImage, type ImageRules } from '../../../lib/inspect-image';
import { createStaffGuard } from '../../../lib/staff-auth';

const ACCEPTED_FORMATS = new Set(['jpeg', 'png', 'webp', 'avif', 'gif', 'heif']);
const MAX_PIXELS = 40_000_000;
const MIN_SIDE = 200;

const IMAGE_RULES: ImageRules = {
  formats: ACCEPTED_FORMATS,
  maxPixels: MAX_PIXELS,
  minSide: MIN_SIDE,
  messages: { empty: UPLOAD_MESSAGES.empty, notAnImage: UPLOAD_MESSAGES.notAnImage, tooManyPixels: UPLOAD_MESSAGES.tooManyPixels, tooSmall: UPLOAD_MESSAGES.tooSmall },
};

export async function storeProductImage(storage: FileStorage, bytes: Buffer): Promise<UploadedImage> {
  const meta = await inspectImage(bytes, IMAGE_RULES);

  const name = `${UPLOADED_IMAGE_PREFIX}${createHash('sha256').update(bytes).digest('hex').slice(0, 20)}`;
  const urls: Record<string, string> = {};
  for (const width of UPLOADED_IMAGE_WIDTHS) {
    // rotate(): the camera's EXIF orientation applied, and (as WebP output keeps none) no metadata kept.
    const resized = await sharp(bytes, { limitInputPixels: MAX_PIXELS }).rotate().resize({ width, withoutEnlargement: true }).webp({ quality: 82 }).toBuffer();
    const key = `products/${name}-${width}.webp`;
    await storage.put(key, resized, { contentType: 'image/webp' });
    urls[width] = uploadedImageUrl(name, width);
  }
  return { image: name, width: meta.width, height: meta.height, urls };
}

/**
 * POST /api/admin/products/images (catalogue staff): the picture's bytes as the body. Mounted ahead of
 * the API's JSON-only rule, with its own body limit.
 */
export function productImageUploadRoutes(ctx: AppContext, { pictures }: { pictures: FileStorage }): Router {
  const guard = createStaffGuard(ctx);
  const router = Router();
  router.post(
    '/admin/products/images',
    guard.require('catalog.manage'),
    express.raw({ type: [...UPLOAD_CONTENT_TYPES, 'application/octet-stream'], limit: UPLOAD_MAX_BYTES }),
    async (req, res) => {
      if (!Buffer.isBuffer(req.body)) throw new AppError('UNSUPPORTED_MEDIA_TYPE', UPLOAD_MESSAGES.notAnImage);
      res.status(201).json(await storeProductImage(pictures, req.body));
    },
  );
  // The body limit's refusal in words staff can act on.
  router.use((err: unknown, _req: express.Request, _res: express.Response, next: express.NextFunction) => {
    next((err as { type?: string }).type === 'entity.too.large' ? new AppError('BODY_TOO_LARGE', UPLOAD_MESSAGES.tooLarge) : err);
  });
  return router;
}
