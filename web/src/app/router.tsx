import type { ComponentType } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router-dom';
import { SiteLayout } from './layout/site-layout';

/** Each screen is its own chunk: the storefront's first load never downloads checkout or admin code. */
const page = (load: () => Promise<{ default: ComponentType }>): Pick<RouteObject, 'lazy'> => ({
  lazy: async () => ({ Component: (await load()).default }),
});

const shop = page(() => import('@/features/catalog/routes/shop'));
const category = page(() => import('@/features/catalog/routes/category'));
const impact = page(() => import('@/features/content/routes/impact'));

export const routes: RouteObject[] = [
  {
    element: <SiteLayout />,
    // Routes load lazily; until the first one arrives, render nothing (the page stays blank for a moment).
    hydrateFallbackElement: <div className="min-h-screen" aria-busy="true" />,
    children: [
      { path: '/', ...page(() => import('@/app/routes/home')) },
      { path: '/shop', ...shop },
      { path: '/products', ...shop },
      { path: '/shop/:categorySlug', ...category },
      { path: '/category/:categorySlug', ...category },
      { path: '/product/:slug', ...page(() => import('@/features/catalog/routes/product')) },
      { path: '/ingredients', ...page(() => import('@/features/content/routes/ingredients')) },
      { path: '/how-it-works', ...page(() => import('@/features/content/routes/how-it-works')) },
      { path: '/journal', ...page(() => import('@/features/journal/routes/journal-list')) },
      { path: '/journal/:slug', ...page(() => import('@/features/journal/routes/journal-article')) },
      { path: '/sustainability', ...impact },
      { path: '/impact', ...impact },
      { path: '/about', ...page(() => import('@/features/content/routes/about')) },
      { path: '/support', ...page(() => import('@/features/content/routes/support')) },
      { path: '/legal/:page', ...page(() => import('@/features/content/routes/legal')) },
      { path: '/unsubscribe/:token', ...page(() => import('@/features/newsletter/routes/unsubscribe')) },
      { path: '/checkout', ...page(() => import('@/features/checkout/routes/checkout')) },
      { path: '/subscriptions', ...page(() => import('@/features/subscriptions/routes/subscriptions')) },
      { path: '/admin', ...page(() => import('@/features/admin/routes/promo-manager')) },
      { path: '/admin-products', ...page(() => import('@/features/admin/routes/product-manager')) },
      { path: '/admin-products/create', ...page(() => import('@/features/admin/routes/product-create')) },
      { path: '/admin-products/:slug/edit', ...page(() => import('@/features/admin/routes/product-edit')) },
      { path: '/admin-orders', ...page(() => import('@/features/admin/routes/order-manager')) },
      { path: '/admin-orders/:id', ...page(() => import('@/features/admin/routes/order-detail')) },
      { path: '*', ...page(() => import('@/features/content/routes/not-found')) },
    ],
  },
];

export const router = createBrowserRouter(routes);
