import type { QueryClient } from '@tanstack/react-query';
import type { ComponentType } from 'react';
import { matchRoutes, type RouteObject } from 'react-router-dom';
import { ADMIN_PUBLIC_SCREENS, ADMIN_SCREENS } from '@/features/admin/screens';
import { CheckoutShell } from '@/features/checkout/components/checkout-shell';
import { afterFirstPaint } from '@/lib/after-first-paint';
import type { Prefetch } from '@/lib/prefetch';
import { SiteLayout } from './layout/site-layout';

/** A screen's module: its component, and what it asks the API for before it renders (public pages). */
interface ScreenModule {
  default: ComponentType;
  prefetch?: Prefetch;
}

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
  const page = (load: () => Promise<ScreenModule>): Pick<RouteObject, 'lazy'> => ({
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
  });

  /** A layout route loaded with its first screen (the admin frame stays out of the storefront's chunks). */
  const layout = (load: () => Promise<ComponentType>): Pick<RouteObject, 'lazy'> => ({
    lazy: async () => ({ Component: await load() }),
  });

  const shop = page(() => import('@/features/catalog/routes/shop'));
  const category = page(() => import('@/features/catalog/routes/category'));
  const impact = page(() => import('@/features/content/routes/impact'));

  return [
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
        {
          path: '/checkout',
          // Rendered in the browser: the frame and the heading (the LCP element) paint first, then the page's code loads.
          ...page(() => afterFirstPaint().then(() => import('@/features/checkout/routes/checkout'))),
          hydrateFallbackElement: <CheckoutShell />,
        },
        { path: '/checkout/complete/:orderId', ...page(() => import('@/app/routes/order-confirmation')) },
        { path: '/subscriptions', ...page(() => import('@/features/subscriptions/routes/subscriptions')) },
        { path: '/subscriptions/update-card/:token', ...page(() => import('@/features/subscriptions/routes/update-card')) },
        { path: '/email-actions/:token', ...page(() => import('@/features/email-actions/routes/email-action')) },
        { path: '/account/orders', ...page(() => import('@/features/account/routes/orders')) },
        { path: '/account/orders/:id', ...page(() => import('@/features/account/routes/order')) },
        { path: '/account/forgot-password', ...page(() => import('@/features/account/routes/forgot-password')) },
        { path: '/account/reset-password', ...page(() => import('@/features/account/routes/reset-password')) },
        { path: '/account/confirm-email/:token', ...page(() => import('@/features/account/routes/confirm-email')) },
        { path: '/orders/lookup', ...page(() => import('@/features/account/routes/order-lookup')) },
        { path: '/orders/view', ...page(() => import('@/features/account/routes/order-view')) },
        { path: '*', ...page(() => import('@/features/content/routes/not-found')) },
      ],
    },
    {
      // The back office: its own frame, no storefront header or footer; signed out, every route shows the sign-in screen.
      ...layout(async () => {
        const { AdminLayout } = await import('@/features/admin/shell/admin-layout');
        return () => <AdminLayout screens={ADMIN_SCREENS} />;
      }),
      hydrateFallbackElement: <div className="min-h-screen" aria-busy="true" />,
      children: ADMIN_SCREENS.flatMap(({ path, screen }) => (screen === 'server' ? [] : [{ path, ...page(screen) }])),
    },
    {
      // Used before signing in: accepting an invitation, asking for and using a password reset link.
      ...layout(async () => (await import('@/features/admin/shell/admin-layout')).AdminPublicLayout),
      hydrateFallbackElement: <div className="min-h-screen" aria-busy="true" />,
      children: ADMIN_PUBLIC_SCREENS.map(({ path, screen }) => ({ path, ...page(screen) })),
    },
  ];
}

/**
 * Whether the app has a screen for `pathname`: a route other than the catch-all not-found screen
 * matches it. Any other path of the site is the server's (`/api/login`, `/admin/queues`, `/uploads/…`),
 * so a link to it is an ordinary navigation.
 */
export function hasScreen(routes: RouteObject[], pathname: string): boolean {
  const matches = matchRoutes(routes, pathname);
  return matches !== null && matches[matches.length - 1]!.route.path !== '*';
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
