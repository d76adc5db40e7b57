/**
 * The one check of an uploaded picture's bytes (product pictures, claims' photos): by its content
 * (sharp reads the real format, not the name or the Content-Type), not empty, not more pixels than the
 * caller allows (read from the header, before any decoding), and, when asked, not smaller than a side.
 * Each caller names its formats, limits and the words of each refusal.
 */
import sharp, { type Metadata } from 'sharp';
import { AppError } from './errors';

export interface ImageRules {
  /** sharp's format names accepted (`jpeg`, `png`, `webp`, …). */
  formats: ReadonlySet<string>;
  maxPixels: number;
  /** The shortest width and height accepted (none: any size). */
  minSide?: number;
  messages: { empty: string; notAnImage: string; tooManyPixels: string; tooSmall?: string };
}

export interface InspectedImage {
  format: string;
  width: number;
  height: number;
}

/** The picture's format and size, or the refusal: 400 empty or too small, 415 not a picture, 413 too many pixels. */
export async function inspectImage(bytes: Buffer, rules: ImageRules): Promise<InspectedImage> {
  if (bytes.length === 0) throw new AppError('VALIDATION_FAILED', rules.messages.empty);
  let meta: Metadata;
  try {
    // No pixel limit here: only the header is read, and the limit is checked below in words.
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', rules.messages.notAnImage);
  }
  const { format, width, height } = meta;
  if (!format || !rules.formats.has(format) || !width || !height) throw new AppError('UNSUPPORTED_MEDIA_TYPE', rules.messages.notAnImage);
  if (width * height > rules.maxPixels) throw new AppError('BODY_TOO_LARGE', rules.messages.tooManyPixels);
  if (rules.minSide !== undefined && (width < rules.minSide || height < rules.minSide)) throw new AppError('VALIDATION_FAILED', rules.messages.tooSmall ?? rules.messages.notAnImage);
  return { format, width, height };
}
