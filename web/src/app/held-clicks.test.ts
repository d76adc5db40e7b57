/**
 * A click held while a server-rendered page hydrates (lib/early-clicks.ts) is replayed through the
 * router only for the paths the app's own router has a screen for (issue 19): "Log In" (`/api/login`)
 * and the other paths the server answers go as ordinary navigations, instead of landing on the
 * not-found screen.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createQueryClient } from '@/lib/query-client';
import { holdEarlyClicks } from '@/lib/early-clicks';
import { createRoutes, hasScreen } from './router';

const routes = createRoutes(createQueryClient(), { awaitData: false });

afterEach(() => {
  document.body.innerHTML = '';
});

/** Holds, clicks a link to `href`, releases: where the click went. */
function replay(href: string): string[] {
  const held = holdEarlyClicks(document);
  const a = document.createElement('a');
  a.setAttribute('href', href);
  document.body.append(a);
  a.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, button: 0 }));
  const went: string[] = [];
  held.release({
    hasScreen: (pathname) => hasScreen(routes, pathname),
    route: (to) => went.push(`route:${to}`),
    load: (to) => went.push(`load:${to}`),
  });
  return went;
}

describe('a click held during hydration', () => {
  it.each([
    ['/api/login', 'load:/api/login'],
    ['/api/login?returnTo=%2Faccount%2Forders', 'load:/api/login?returnTo=%2Faccount%2Forders'],
    ['/api/logout', 'load:/api/logout'],
    ['/admin/queues', 'load:/admin/queues'],
    ['/uploads/products/upl-ab12-640.webp', 'load:/uploads/products/upl-ab12-640.webp'],
    ['/sitemap.xml', 'load:/sitemap.xml'],
    ['/no/such/page', 'load:/no/such/page'],
    ['/', 'route:/'],
    ['/shop?filter=starter#top', 'route:/shop?filter=starter#top'],
    ['/product/surfy', 'route:/product/surfy'],
    ['/account/orders', 'route:/account/orders'],
    ['/admin', 'route:/admin'],
    ['/admin/audit', 'route:/admin/audit'],
    ['/admin/reset-password', 'route:/admin/reset-password'],
  ])('on %s goes %s', (href, expected) => {
    expect(replay(href)).toEqual([expected]);
  });
});
