/**
 * The back office's product calls that go beyond the spec's create/edit/delete (those stay in ../api.ts):
 * the paged, searchable list (POST /api/admin/products with X-Total-Count), picture upload
 * (POST /api/admin/products/images, the bytes as the body) and inventory adjustments with a reason.
 */
import type { AdminProductsRequest, InventoryAdjustmentRequest, InventoryLog } from '@nh/shared/contracts/admin-products';
import type { Product } from '@nh/shared/contracts/catalog';
import type { UploadedImage } from '@nh/shared/contracts/product-images';
import { apiRequest, throwIfResNotOk } from '@/lib/query-client';

export const PRODUCTS_PAGE_SIZE = 50;

export interface ProductsPage {
  products: Product[];
  total: number;
}

/** Under adminKeys.products, so every product write's invalidation reaches them. */
export const catalogKeys = {
  page: (query: AdminProductsRequest) => ['admin', 'products', 'page', query] as const,
  bySlug: (slug: string) => ['admin', 'products', 'slug', slug] as const,
  names: ['admin', 'products', 'names'] as const,
  inventory: (id: number) => ['admin', 'products', 'inventory', id] as const,
};

/** A page of products (inactive ones too) by name; without limit, every product. */
export async function listProducts(query: AdminProductsRequest = {}): Promise<ProductsPage> {
  const res = await apiRequest('POST', '/api/admin/products', { ...query, search: query.search?.trim() || undefined });
  const products = (await res.json()) as Product[];
  return { products, total: Number(res.headers.get('X-Total-Count') ?? products.length) };
}

/** The product with this exact slug (searched, so inactive products are found too), or null. */
export async function findProductBySlug(slug: string): Promise<Product | null> {
  const { products } = await listProducts({ search: slug, limit: 200 });
  return products.find((p) => p.slug === slug) ?? null;
}

/** The picture's bytes as the body with its own Content-Type; the answer names the stored image. */
export async function uploadProductImage(file: Blob): Promise<UploadedImage> {
  const res = await fetch('/api/admin/products/images', {
    method: 'POST',
    headers: { 'Content-Type': file.type || 'application/octet-stream' },
    body: file,
    credentials: 'include',
  });
  await throwIfResNotOk(res);
  return (await res.json()) as UploadedImage;
}

export const inventoryLog = async (productId: number) =>
  (await (await apiRequest('GET', `/api/admin/products/${productId}/inventory`)).json()) as InventoryLog;

export const adjustInventory = async (productId: number, adjustment: InventoryAdjustmentRequest) =>
  (await (await apiRequest('POST', `/api/admin/products/${productId}/inventory`, adjustment)).json()) as InventoryLog;
