import type { QueryClient } from '@tanstack/react-query';
import type { ComponentType } from 'react';
import { matchRoutes, type RouteObject } from 'react-router-dom';
import type { Prefetch } from '@/lib/prefetch';
import { SiteLayout } from './layout/site-layout';

/** A screen's module: its component, and what it asks the API for before it renders (public pages). */
interface ScreenModule {
  default: ComponentType;
  prefetch?: Prefetch;
}

/** What a screen's route carries: its module's path in the build (`src/…`; the server preloads its chunk). */
export interface ScreenHandle {
  screen: string;
}

/** Every screen module by its path: each is its own chunk, loaded when its route first matches. */
const screens = import.meta.glob<ScreenModule>(['/src/app/routes/*.tsx', '/src/features/*/routes/*.tsx', '!/src/**/*.test.tsx']);

export interface RouteOptions {
  /**
   * The server renders a page once its data is in: there the loaders wait. In the browser a navigation
   * shows the next screen at once (with its skeleton) while the same calls, already started, answer.
   */
  awaitData: boolean;
}

/**
 * The app's routes, the same on the server and in the browser. Each screen is its own chunk: the
 * storefront's first load never downloads checkout or admin code. A screen's `prefetch` is its loader.
 */
export function createRoutes(queryClient: QueryClient, { awaitData }: RouteOptions): RouteObject[] {
  /** The route of the screen in `src/{screen}.tsx`. */
  const page = (screen: string): Pick<RouteObject, 'lazy' | 'handle'> => {
    const load = screens[`/src/${screen}.tsx`];
    if (!load) throw new Error(`No screen module src/${screen}.tsx`);
    const handle: ScreenHandle = { screen: `src/${screen}.tsx` };
    return {
      handle,
      lazy: async () => {
        const { default: Component, prefetch } = await load();
        if (!prefetch) return { Component };
        return {
          Component,
          loader: async ({ params }) => {
            // A failed call is the screen's to show (its error state), never the router's.
            const loading = prefetch(queryClient, params).catch(() => undefined);
            if (awaitData) await loading;
            return null;
          },
        };
      },
    };
  };

  /** A layout route loaded with its first screen (the admin frame stays out of the storefront's chunks). */
  const layout = (load: () => Promise<ComponentType>): Pick<RouteObject, 'lazy'> => ({
    lazy: async () => ({ Component: await load() }),
  });

  const shop = page('features/catalog/routes/shop');
  const category = page('features/catalog/routes/category');
  const impact = page('features/content/routes/impact');

  return [
    {
      element: <SiteLayout />,
      // Routes load lazily; until the first one arrives, render nothing (the page stays blank for a moment).
      hydrateFallbackElement: <div className="min-h-screen" aria-busy="true" />,
      children: [
        { path: '/', ...page('app/routes/home') },
        { path: '/shop', ...shop },
        { path: '/products', ...shop },
        { path: '/shop/:categorySlug', ...category },
        { path: '/category/:categorySlug', ...category },
        { path: '/product/:slug', ...page('features/catalog/routes/product') },
        { path: '/ingredients', ...page('features/content/routes/ingredients') },
        { path: '/how-it-works', ...page('features/content/routes/how-it-works') },
        { path: '/journal', ...page('features/journal/routes/journal-list') },
        { path: '/journal/:slug', ...page('features/journal/routes/journal-article') },
        { path: '/sustainability', ...impact },
        { path: '/impact', ...impact },
        { path: '/about', ...page('features/content/routes/about') },
        { path: '/support', ...page('features/content/routes/support') },
        { path: '/legal/:page', ...page('features/content/routes/legal') },
        { path: '/unsubscribe/:token', ...page('features/newsletter/routes/unsubscribe') },
        { path: '/checkout', ...page('features/checkout/routes/checkout') },
        { path: '/subscriptions', ...page('features/subscriptions/routes/subscriptions') },
        { path: '/account/orders', ...page('features/account/routes/orders') },
        { path: '/account/orders/:id', ...page('features/account/routes/order') },
        { path: '/account/forgot-password', ...page('features/account/routes/forgot-password') },
        { path: '/account/reset-password', ...page('features/account/routes/reset-password') },
        { path: '/orders/lookup', ...page('features/account/routes/order-lookup') },
        { path: '/orders/view', ...page('features/account/routes/order-view') },
        { path: '*', ...page('features/content/routes/not-found') },
      ],
    },
    {
      // The back office: its own frame, no storefront header or footer; signed out, every route shows the sign-in screen.
      ...layout(async () => (await import('@/features/admin/components/admin-layout')).AdminLayout),
      hydrateFallbackElement: <div className="min-h-screen" aria-busy="true" />,
      children: [
        { path: '/admin', ...page('features/admin/routes/dashboard') },
        { path: '/admin/promos', ...page('features/admin/routes/promo-manager') },
        { path: '/admin-products', ...page('features/admin/routes/product-manager') },
        { path: '/admin-products/create', ...page('features/admin/routes/product-create') },
        { path: '/admin-products/:slug/edit', ...page('features/admin/routes/product-edit') },
        { path: '/admin-orders', ...page('features/admin/routes/order-manager') },
        { path: '/admin-orders/:id', ...page('features/admin/routes/order-detail') },
        { path: '/admin/subscriptions', ...page('features/admin/routes/subscriptions') },
        { path: '/admin/subscriptions/:id', ...page('features/admin/routes/subscription-detail') },
        { path: '/admin/reviews', ...page('features/admin/routes/reviews') },
        { path: '/admin/staff', ...page('features/admin/routes/staff-manager') },
        { path: '/admin/audit', ...page('features/admin/routes/audit-trail') },
      ],
    },
    {
      // Used before signing in: accepting an invitation, asking for and using a password reset link.
      ...layout(async () => (await import('@/features/admin/components/admin-layout')).AdminPublicLayout),
      hydrateFallbackElement: <div className="min-h-screen" aria-busy="true" />,
      children: [
        { path: '/admin/invite', ...page('features/admin/routes/accept-invitation') },
        { path: '/admin/forgot-password', ...page('features/admin/routes/forgot-password') },
        { path: '/admin/reset-password', ...page('features/admin/routes/reset-password') },
      ],
    },
  ];
}

/**
 * Loads the code of the routes that match `location` into the route objects, so the router starts with
 * them (hydration must render at once what the server rendered, not the loading fallback).
 */
export async function resolveLazyRoutes(routes: RouteObject[], location: { pathname: string }): Promise<void> {
  const matches = matchRoutes(routes, location) ?? [];
  await Promise.all(
    matches.map(async ({ route }) => {
      if (typeof route.lazy !== 'function') return;
      Object.assign(route, await route.lazy(), { lazy: undefined });
    }),
  );
}
