/**
 * The back office's product calls: the paged, searchable list (POST /api/admin/products with
 * X-Total-Count), create, edit and delete, picture upload (POST /api/admin/products/images, the bytes as
 * the body) and inventory adjustments with a reason; and their queries.
 */
import type { UpdateProductInput } from '@nh/shared/contracts/admin';
import type { AdminProductsRequest, InventoryAdjustmentRequest, InventoryLog } from '@nh/shared/contracts/admin-products';
import type { Category, Product } from '@nh/shared/contracts/catalog';
import type { UploadedImage } from '@nh/shared/contracts/product-images';
import { matchQuery, queryOptions, type Query } from '@tanstack/react-query';
import { apiRequest, getQueryFn, readJson, throwIfResNotOk } from '@/lib/query-client';
import { ADMIN_KEY, sendJson } from '../shell/api';

export const PRODUCTS_PAGE_SIZE = 50;

export interface ProductsPage {
  products: Product[];
  total: number;
}

/** A page of products (inactive ones too) by name; without limit, every product. */
async function listProducts(query: AdminProductsRequest = {}): Promise<ProductsPage> {
  const res = await apiRequest('POST', '/api/admin/products', { ...query, search: query.search?.trim() || undefined });
  const products = (await res.json()) as Product[];
  return { products, total: Number(res.headers.get('X-Total-Count') ?? products.length) };
}

/** The product with this exact slug (searched, so inactive products are found too), or null. */
async function findProductBySlug(slug: string): Promise<Product | null> {
  const { products } = await listProducts({ search: slug, limit: 200 });
  return products.find((p) => p.slug === slug) ?? null;
}

/** The server requires name, slug, price and categoryId (the create form checks them first). */
export const createProduct = async (input: UpdateProductInput) => readJson<Product>(await sendJson('POST', '/api/products', input));

export const updateProduct = async (id: number, input: UpdateProductInput) => readJson<Product>(await sendJson('PUT', `/api/products/${id}`, input));

export const deleteProduct = async (id: number) => readJson<{ deleted: true }>(await sendJson('DELETE', `/api/products/${id}`));

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

const inventoryLog = async (productId: number) => (await (await apiRequest('GET', `/api/admin/products/${productId}/inventory`)).json()) as InventoryLog;

export const adjustInventory = async (productId: number, adjustment: InventoryAdjustmentRequest) =>
  (await (await apiRequest('POST', `/api/admin/products/${productId}/inventory`, adjustment)).json()) as InventoryLog;

// ---------------------------------------------------------------- queries
const PRODUCTS = [...ADMIN_KEY, 'products'] as const;
const INVENTORY = [...PRODUCTS, 'inventory'] as const;

export const productQueries = {
  /** Every product query (what to read again after a product was written). */
  all: PRODUCTS,
  page: (query: AdminProductsRequest) => queryOptions({ queryKey: [...PRODUCTS, 'page', query], queryFn: () => listProducts(query), staleTime: 0 }),
  bySlug: (slug: string) => queryOptions({ queryKey: [...PRODUCTS, 'slug', slug], queryFn: () => findProductBySlug(slug), staleTime: 0 }),
  /** Every product, for a choice by name (the review filter). */
  names: queryOptions({ queryKey: [...PRODUCTS, 'names'], queryFn: () => listProducts(), staleTime: 60_000 }),
  inventory: (productId: number) => queryOptions({ queryKey: [...INVENTORY, productId], queryFn: () => inventoryLog(productId), staleTime: 0 }),
  /** The storefront's category list (the same query as the shop's). */
  categories: queryOptions({ queryKey: ['/api/categories'], queryFn: getQueryFn<Category[]>({ on401: 'throw' }), staleTime: 60_000 }),
};

/** A product's stock log is not among the lists its stock shows in. */
export const isInventoryLog = (query: Query) => matchQuery({ queryKey: INVENTORY }, query);
