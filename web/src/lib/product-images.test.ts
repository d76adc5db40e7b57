import { afterEach, describe, expect, it, vi } from 'vitest';
import { mainProductImage, PRODUCT_PLACEHOLDER_IMAGE, productImageSrcSet, productImageUrl, resolveImageKey } from './product-images';

afterEach(() => vi.restoreAllMocks());

describe('product images by key', () => {
  it('resolves known keys with or without the file extension', () => {
    expect(productImageUrl('surfy-surface.svg')).toBe('/api/public/surfy-surface.svg');
    expect(productImageUrl('complete-starter-kit')).toBe('/api/public/complete-starter-kit.svg');
  });
  it('serves pictures uploaded in the back office from /uploads, every width in the srcset', () => {
    const name = 'upl-0123456789abcdef0123';
    expect(productImageUrl(name)).toBe(`/uploads/products/${name}-640.webp`);
    expect(productImageSrcSet(name)).toBe(`/uploads/products/${name}-320.webp 320w, /uploads/products/${name}-640.webp 640w, /uploads/products/${name}-1280.webp 1280w`);
    expect(productImageSrcSet('surfy-surface.svg')).toBeUndefined();
  });
  it('passes uploaded and absolute paths through', () => {
    expect(productImageUrl('/uploads/abc.png')).toBe('/uploads/abc.png');
    expect(productImageUrl('https://cdn.example.com/a.png')).toBe('https://cdn.example.com/a.png');
  });
  it('falls back to the generic picture and warns for an unknown key', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(productImageUrl('mystery-bottle.svg')).toBe(PRODUCT_PLACEHOLDER_IMAGE);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('mystery-bottle.svg'));
    expect(resolveImageKey(null)).toBeNull();
    expect(mainProductImage([])).toBe(PRODUCT_PLACEHOLDER_IMAGE);
  });
});
