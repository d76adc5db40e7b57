import fs from 'node:fs';
import type { RequestListener } from 'node:http';
import path from 'node:path';
import compression from 'compression';
import express, { type Express, type Request, type Response } from 'express';
import type { AppContext } from './lib/context';
import { securityHeaders } from './lib/security-headers';
import { storedFileRoutes } from './lib/stored-files';
import { accessLine, requestContext, requestId } from './lib/request-logger';
import { whenAnswered } from './lib/when-answered';
import { httpMetrics } from './lib/http-metrics';
import { inOrder } from './lib/in-order';
import { aheadOfExpress } from './lib/ahead-of-express';
import { tracingOn } from '@nh/server/observability/tracing';
import { plainHttpWarning, untrustedProxyWarning } from './lib/proxy-warning';
import { sameOriginGuard } from './lib/same-origin';
import { sessionMiddleware } from './lib/session';
import { catalogRoutes } from './modules/catalog';
import { healthRoutes } from './modules/health/routes';
import { metricsRoutes } from './modules/health/metrics';
import { spaPage, type SpaPage } from './modules/seo/page-status';
import { renderHead } from './modules/seo/render-head';
import { serverRender, withEntryScriptAtLowPriority, type RenderPage } from './modules/seo/server-render';
import { siteOrigin } from './modules/seo/site-origin';
import { apiModules, createAppServices, formBodyModules, pageModules, type AppServices } from './modules';
import { AppError, errorHandler, notFoundApi } from './lib/errors';

/** Staff's uploaded pictures are cached a day, as when they were served from the folder by express.static. */
const UPLOAD_MAX_AGE_SECONDS = 24 * 3600;

/** The API: its Express app, and the server's request listener (the app, with cached answers sent ahead of it). */
export interface ShopApi {
  app: Express;
  listener: RequestListener;
}

/**
 * The app: request-wide middleware, then the modules (composed in modules/index.ts). `services` are
 * made by the process's composition root (main.ts); tests and benchmarks may let the app make them.
 */
export function createApp(ctx: AppContext, services: AppServices = createAppServices(ctx)): ShopApi {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', 'strong');
  if (ctx.config.TRUST_PROXY) app.set('trust proxy', 1);

  // Every request's bookkeeping and headers, as one layer of the router (lib/in-order.ts).
  const everyRequest = inOrder(
    requestId(app, ctx.log),
    whenAnswered(accessLine(ctx.log), httpMetrics(app)),
    untrustedProxyWarning(ctx.log, ctx.config.isProduction && !ctx.config.TRUST_PROXY),
    securityHeaders({
      contentSecurityPolicy: {
        useDefaults: true,
        directives: {
          // The checkout loads the payment provider's tokenising script (Accept.js) from its host.
          'script-src': ["'self'", 'https://js.authorize.net', 'https://jstest.authorize.net'],
          'frame-src': ["'self'", 'https://js.authorize.net', 'https://jstest.authorize.net'],
          'connect-src': ["'self'", 'https://api2.authorize.net', 'https://apitest.authorize.net'],
          'img-src': ["'self'", 'data:', 'blob:'],
          'upgrade-insecure-requests': ctx.config.isProduction ? [] : null,
        },
      },
      crossOriginEmbedderPolicy: false,
      // Not helmet's no-referrer: under it browsers send `Origin: null` with the shop's own form posts
      // (sign-out), which the same-origin guard then cannot tell from a foreign page.
      referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    }),
  );
  app.use(everyRequest);
  // Public catalogue reads come before compression, body parsing and sessions: they need none of them
  // (the catalogue cache keeps its own gzip bytes), and they are the hottest path of the shop.
  // A person's request that changes state marks their reads for the primary a while (read-your-writes).
  // Nothing else goes between the every-request layer and the catalogue's routes: a cached answer is sent
  // ahead of Express (lib/ahead-of-express.ts) with that layer only, so a layer added here would be
  // skipped for it (the mark does nothing on a GET). `ahead-of-express.test.ts` checks the router's stack.
  if (services.reads.mark) app.use('/api', services.reads.mark);
  // On the app's own router, not mounted at /api: one routing pass, not two (issue 26).
  const catalog = catalogRoutes(ctx, { reads: services.reads, router: app.router, prefix: '/api' });
  app.use(healthRoutes(ctx, { lifecycle: services.lifecycle }));
  app.use(metricsRoutes({ token: ctx.config.METRICS_TOKEN, registry: services.metrics }));
  app.use(compression());

  // Pictures: /api/public/{filename} (catalogue art, shipped with the code) and /uploads/... (staff
  // uploads, from the file storage: the local folder or the bucket; same URLs and caching either way).
  app.use('/api/public', express.static(ctx.config.PUBLIC_DIR, { maxAge: '7d', fallthrough: false }));
  app.use('/uploads', storedFileRoutes(services.files.uploads, { maxAgeSeconds: UPLOAD_MAX_AGE_SECONDS }));

  // Requests that change state come from the shop's own pages (cross-site request forgery).
  const siteOrigins = [ctx.config.SHOP_SITE_URL, ...ctx.config.ALLOWED_ORIGINS].filter((o): o is string => Boolean(o));
  app.use(
    '/api',
    sameOriginGuard({
      allowedOrigins: siteOrigins,
      // RFC 8058 one-click unsubscribe: posted by mail clients, authorised by the token in its URL.
      exempt: [/^\/newsletter\/unsubscribe\//],
    }),
  );
  // Routes that take a form body and need no session (RFC 8058 one-click unsubscribe), ahead of the JSON-only rule.
  for (const router of formBodyModules(ctx, services)) app.use('/api', router);
  // Writes are JSON only, with a body limit.
  app.use('/api', express.json({ limit: '100kb', strict: true }));
  app.use('/api', (req, _res, next) => {
    const hasBody = Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
    if (['POST', 'PUT', 'PATCH'].includes(req.method) && hasBody && !req.is('application/json')) {
      next(new AppError('UNSUPPORTED_MEDIA_TYPE', 'Requests with a body must be sent as JSON (Content-Type: application/json).'));
      return;
    }
    next();
  });
  app.use('/api', plainHttpWarning(ctx.log, ctx.config.alwaysSecureCookies));
  app.use('/api', sessionMiddleware(ctx));
  app.use('/api', requestContext);
  for (const router of apiModules(ctx, services)) app.use('/api', router);
  app.use('/api', notFoundApi);
  // Server-rendered staff pages outside /api (the queue dashboard), same-origin writes only.
  for (const { path: at, router } of pageModules(ctx)) app.use(at, sameOriginGuard({ allowedOrigins: siteOrigins }), router);

  serveSpa(app, ctx.config.WEB_DIST, {
    page: (req, res) => services.reads.read(req, res, (db) => spaPage(db)(req.path)),
    render: serverRender(ctx.config.WEB_DIST, ctx.log),
    origin: (req) => siteOrigin(ctx.config, req),
  });
  app.use(errorHandler);
  // A cached catalogue answer is sent without Express (lib/ahead-of-express.ts). Not while tracing: the
  // request's span takes its route from Express's spans, and a traced request costs more than Express anyway.
  return { app, listener: tracingOn() ? app : aheadOfExpress(app, everyRequest, catalog.cachedAnswer, ctx.log) };
}

/** The built index.html's root element, where the app (or its server render) goes. */
const EMPTY_ROOT = '<div id="root"></div>';

/** The folder of WEB_DIST holding the previous release's `assets/` (only in an image built with PREVIOUS_IMAGE). */
export const PREVIOUS_ASSETS_DIR = 'previous-assets';

/**
 * The built SPA with history fallback: any non-API GET that is not a file gets index.html, its head filled
 * in for the page (title, description, canonical, Open Graph) and 404 for a page that does not exist (an
 * unknown route, product, category, article or legal page): see modules/seo/page-status.ts. A public
 * page's body is rendered on the server (modules/seo/server-render.ts) and streamed into the root.
 */
function serveSpa(
  app: Express,
  dist: string,
  {
    page,
    render,
    origin,
  }: { page: (req: Request, res: Response) => Promise<SpaPage>; render: RenderPage; origin: (req: Request) => string },
): void {
  const index = path.join(dist, 'index.html');
  // Read once per build (a rebuild while running changes its modification time).
  let cached: { mtimeMs: number; html: string } | null = null;
  const indexHtml = async () => {
    const { mtimeMs } = await fs.promises.stat(index);
    if (cached?.mtimeMs !== mtimeMs) cached = { mtimeMs, html: await fs.promises.readFile(index, 'utf8') };
    return cached.html;
  };
  const hashed = { immutable: true, maxAge: '1y' };
  app.use('/assets', express.static(path.join(dist, 'assets'), { ...hashed, fallthrough: true }));
  // The previous release's hashed files, kept in the image (Dockerfile, `previous` stage): a page an old
  // process served during a rolling deploy still loads its scripts from a new one (docs/decisions/workers.md).
  app.use('/assets', express.static(path.join(dist, PREVIOUS_ASSETS_DIR), { ...hashed, fallthrough: false }));
  app.use(express.static(dist, { index: false, maxAge: '1h' }));
  app.get(/^(?!\/api\/).*/, async (req, res, next) => {
    if (!req.accepts('html')) return next();
    if (!fs.existsSync(index)) {
      res.status(503).type('text/plain').send('The storefront has not been built yet: run `npm run build`.');
      return;
    }
    const [{ status, head, serverRendered }, html] = await Promise.all([page(req, res), indexHtml()]);
    const document = renderHead(html, head, origin(req));
    // An index.html without the empty root (a hand-edited build) cannot take a rendered body: the browser renders.
    const rendered = serverRendered && document.includes(EMPTY_ROOT) ? await render(req, `${origin(req)}${req.originalUrl}`) : null;
    res.setHeader('Cache-Control', 'no-cache');
    res.status(status).type('html');
    if (!rendered) {
      res.send(document);
      return;
    }
    const [before = '', after = ''] = document.split(EMPTY_ROOT, 2);
    res.write(`${withEntryScriptAtLowPriority(before)}<div id="root">`);
    const reader = rendered.body.getReader();
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      if (res.destroyed) return void (await reader.cancel());
      res.write(chunk.value);
    }
    res.end(`</div>${rendered.stateScript}${after}`);
  });
}
