/**
 * For search engines: `/robots.txt` (what to leave alone, where the sitemap is) and `/sitemap.xml` (every
 * public page with its last change). Absolute URLs use SHOP_SITE_URL (required in production; see
 * site-origin.ts), never the request's Host header.
 */
import { Router, type Request } from 'express';
import { ROBOTS_ALLOW, ROBOTS_DISALLOW } from '@nh/shared/contracts/site-map';
import type { AppContext } from '../../lib/context';
import { siteMapEntries } from './site-map';
import { siteOrigin } from './site-origin';

const escapeXml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');

export function seoRoutes(ctx: AppContext): Router {
  const router = Router();
  const origin = (req: Request) => siteOrigin(ctx.config, req);

  router.get('/robots.txt', (req, res) => {
    const lines = [
      'User-agent: *',
      ...ROBOTS_DISALLOW.map((p) => `Disallow: ${p}`),
      ...ROBOTS_ALLOW.map((p) => `Allow: ${p}`),
      '',
      `Sitemap: ${origin(req)}/sitemap.xml`,
      '',
    ];
    res.setHeader('Cache-Control', 'public, max-age=3600');
    res.type('text/plain').send(lines.join('\n'));
  });

  router.get('/sitemap.xml', async (req, res) => {
    const base = origin(req);
    const urls = (await siteMapEntries(ctx.db)).map(
      ({ path, lastModified }) =>
        `  <url><loc>${escapeXml(base + path)}</loc>${lastModified ? `<lastmod>${lastModified.toISOString()}</lastmod>` : ''}</url>`,
    );
    res.setHeader('Cache-Control', 'public, max-age=3600');
    res
      .type('application/xml')
      .send(
        [
          '<?xml version="1.0" encoding="UTF-8"?>',
          '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
          ...urls,
          '</urlset>',
          '',
        ].join('\n'),
      );
  });
  return router;
}
