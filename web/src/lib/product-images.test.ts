import { afterEach, describe, expect, it, vi } from 'vitest';
import { mainProductImage, PRODUCT_PLACEHOLDER_IMAGE, productImageUrl, resolveImageKey } from './product-images';

afterEach(() => vi.restoreAllMocks());

describe('product images by key', () => {
  it('resolves known keys with or without the file extension', () => {
    expect(productImageUrl('surfy-surface.svg')).toBe('/api/public/surfy-surface.svg');
    expect(productImageUrl('complete-starter-kit')).toBe('/api/public/complete-starter-kit.svg');
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
