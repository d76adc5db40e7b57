#!/usr/bin/env node
/**
 * `npm run bench:lighthouse`: Lighthouse (the `lighthouse` package, Debian's Chromium) on the production
 * build, for the home page, the shop, a product, the journal and the checkout (with one item in the
 * cart), with Lighthouse's mobile preset and its desktop preset. Prints the four category scores and
 * LCP, TBT and CLS per page, then every audit that cost a point in accessibility, best practices or
 * SEO. Goals: mobile performance >= 95 (issue 26; it was 90); accessibility, best practices and SEO 100 on every page.
 *
 * What it starts, and stops at the end (also on Ctrl-C or a failure):
 * - `npm run build` first when web/dist or the server bundles are missing or older than the sources
 *   (BENCH_BUILD=1 always builds, BENCH_BUILD=0 never);
 * - the database `nurture_home_lighthouse` (created, migrated and seeded with the demo catalogue by the
 *   release scripts, migrations/dist/migrate.js and seed.js);
 * - the built API serving the built SPA (`node --import ./api/dist/instrument.js api/dist/main.js`,
 *   as the Procfile does) on BENCH_PORT (default 5106), with its own queue prefix;
 * - one headless Chromium (CHROMIUM_PATH, default /usr/bin/chromium) that Lighthouse drives.
 *
 * Performance scores are noisy on a shared two-core machine (simulated throttling multiplies whatever
 * else the CPU is doing): read them as an indication, and run the bench when little else runs.
 * BENCH_RUNS (default 1) runs each page that many times and shows the run of median performance.
 * BENCH_PAGES (e.g. "home,product") limits the pages, BENCH_PRESETS ("mobile", "desktop") the presets;
 * BENCH_EXTRA_PATHS (e.g. "/impact,/journal/some-article") adds pages.
 * The JSON reports are written to .local/lighthouse/ for a closer look.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { tsImport } from 'tsx/esm/api';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { chromium } from 'playwright-core';

const REPO_ROOT = path.resolve(import.meta.dirname, '..', '..');
const PORT = Number(process.env.BENCH_PORT ?? 5106);
const ORIGIN = `http://127.0.0.1:${PORT}`;
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/nurture_home_lighthouse';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const REPORT_DIR = path.join(REPO_ROOT, '.local', 'lighthouse');
const GOALS = { performance: 95, accessibility: 100, 'best-practices': 100, seo: 100 };
const CATEGORIES = Object.keys(GOALS);
const PRESETS = (process.env.BENCH_PRESETS ?? 'mobile,desktop').split(',').filter(Boolean);
/** Lighthouse runs per page and preset; with more than one, the run of median performance is shown. */
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 1));

const { STORAGE_KEYS } = await tsImport('@nh/shared/constants', import.meta.url);

/** Everything this run started, stopped in reverse order at the end. */
const cleanups = [];
let stopping = false;
async function stopAll() {
  stopping = true;
  while (cleanups.length)
    await cleanups
      .pop()()
      .catch(() => {});
}
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    void stopAll().finally(() => process.exit(130));
  });
}

function run(command, args, env = {}) {
  const result = spawnSync(command, args, { cwd: REPO_ROOT, stdio: 'inherit', env: { ...process.env, ...env } });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${result.status}`);
}

/** Newest modification time under `dir` (files only), 0 when missing. */
function newest(dir) {
  if (!fs.existsSync(dir)) return 0;
  if (fs.statSync(dir).isFile()) return fs.statSync(dir).mtimeMs;
  let latest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) latest = Math.max(latest, fs.statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
  }
  return latest;
}

function buildIfNeeded() {
  const outputs = ['web/dist/index.html', 'api/dist/main.js', 'migrations/dist/migrate.js', 'migrations/dist/seed.js'].map((f) =>
    path.join(REPO_ROOT, f),
  );
  const missing = outputs.some((f) => !fs.existsSync(f));
  const built = missing ? 0 : Math.min(...outputs.map((f) => fs.statSync(f).mtimeMs));
  const sources = Math.max(
    ...['web/src', 'web/index.html', 'shared/src', 'api/src', 'migrations/src'].map((d) => newest(path.join(REPO_ROOT, d))),
  );
  const wanted = process.env.BENCH_BUILD === '1' || (process.env.BENCH_BUILD !== '0' && (missing || sources > built));
  if (!wanted) return;
  console.log(missing ? 'building (no build yet): npm run build' : 'building (sources newer than the build): npm run build');
  run('npm', ['run', 'build']);
}

async function waitReady(url, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${url} did not become ready within ${timeoutMs / 1000} s`);
}

/**
 * A child process, stopped with SIGTERM (then SIGKILL) at the end. Its stderr is passed on, or with
 * `quiet` only kept (the last lines) and shown if it exits early: a headless Chromium in a container
 * complains about D-Bus on every start.
 */
function startChild(name, command, args, env, { quiet = false } = {}) {
  const child = spawn(command, args, { cwd: REPO_ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  const tail = [];
  child.stderr.on('data', (chunk) => {
    if (!quiet) {
      process.stderr.write(`[${name}] ${chunk}`);
      return;
    }
    tail.push(...String(chunk).split('\n').filter(Boolean));
    tail.splice(0, Math.max(0, tail.length - 20));
  });
  child.once('exit', (code, signal) => {
    if (quiet && !stopping) process.stderr.write(`[${name}] exited (${code ?? signal}):\n${tail.join('\n')}\n`);
  });
  cleanups.push(async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  });
  return child;
}

/**
 * The API as production runs it, except NODE_ENV=development: a production process refuses the local
 * payment sandbox (the checkout would show "Payment processing is currently unavailable" instead of
 * its card form) and asks for secure cookies behind TLS. The web bundle is the production build either way.
 */
async function startApi() {
  const env = {
    NODE_ENV: 'development',
    LOG_LEVEL: 'warn',
    PORT: String(PORT),
    HOST: '127.0.0.1',
    DATABASE_URL,
    REDIS_URL,
    QUEUE_PREFIX: 'nhlighthouse',
    SHOP_SITE_URL: ORIGIN,
  };
  console.log(`database: ${DATABASE_URL.replace(/\/\/[^@]*@/, '//')}`);
  run(process.execPath, ['migrations/dist/migrate.js'], env);
  run(process.execPath, ['migrations/dist/seed.js'], env);
  startChild('api', process.execPath, ['--import', './api/dist/instrument.js', 'api/dist/main.js'], env);
  await waitReady(`${ORIGIN}/readyz`);
}

/** Headless Chromium with a DevTools port, in a throw-away profile. */
async function startChromium() {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'nh-lighthouse-'));
  const child = startChild(
    'chromium',
    CHROMIUM_PATH,
    [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--remote-debugging-port=0',
      `--user-data-dir=${profile}`,
      'about:blank',
    ],
    {},
    { quiet: true },
  );
  cleanups.push(async () => fs.rmSync(profile, { recursive: true, force: true }));
  // Chromium writes the port it chose into the profile once DevTools listens.
  const portFile = path.join(profile, 'DevToolsActivePort');
  const deadline = Date.now() + 30_000;
  while (!fs.existsSync(portFile) || !fs.readFileSync(portFile, 'utf8').includes('\n')) {
    if (child.exitCode !== null) throw new Error(`Chromium exited with ${child.exitCode}`);
    if (Date.now() > deadline) throw new Error('Chromium did not open its DevTools port');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return Number(fs.readFileSync(portFile, 'utf8').split('\n')[0]);
}

/**
 * Puts one product in the cart (the checkout of an empty cart is an empty page) and empties the HTTP
 * cache, so the checkout run keeps that local storage (Lighthouse's storage reset is off for it) yet
 * loads cold like the others.
 */
async function prepareCart(port, product) {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  try {
    const context = browser.contexts()[0];
    const page = await context.newPage();
    await page.goto(`${ORIGIN}/healthz`);
    const price = Math.round(Number(product.price) * 100);
    const cart = [{ productId: product.id, variantSku: null, name: product.name, price, quantity: 1, slug: product.slug }];
    await page.evaluate(([key, value]) => localStorage.setItem(key, value), [STORAGE_KEYS.cart, JSON.stringify(cart)]);
    const session = await context.newCDPSession(page);
    await session.send('Network.clearBrowserCache');
    await page.close();
  } finally {
    // Only the connection: the browser belongs to this run and keeps going.
    await browser.close().catch(() => {});
  }
}

/** A product with a compare-at price (so its contrast is measured), else the first one. */
async function pickProduct() {
  const res = await fetch(`${ORIGIN}/api/products`);
  if (!res.ok) throw new Error(`GET /api/products answered ${res.status}`);
  const products = await res.json();
  if (!Array.isArray(products) || products.length === 0) throw new Error('the demo catalogue has no product');
  return products.find((p) => p.compareAtPrice && Number(p.compareAtPrice) > Number(p.price)) ?? products[0];
}

/** The run whose performance score is the median (Lighthouse's advice for noisy machines). */
function medianRun(runs) {
  const sorted = [...runs].sort((a, b) => (a.categories.performance?.score ?? 0) - (b.categories.performance?.score ?? 0));
  return sorted[Math.floor((sorted.length - 1) / 2)];
}

const round = (score) => (score === null || score === undefined ? '-' : String(Math.round(score * 100)));

/** One Lighthouse run; a run whose trace failed (NO_NAVSTART and the like, on a busy machine) is tried once more. */
async function audit(port, url, preset, keepStorage, attempt = 1) {
  const flags = { port, output: 'json', logLevel: 'error', onlyCategories: CATEGORIES, disableStorageReset: keepStorage };
  const result = await lighthouse(url, flags, preset === 'desktop' ? desktopConfig : undefined);
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
  const lhr = result.lhr;
  if (lhr.runtimeError) {
    if (attempt < 2) {
      console.log(`  ${preset} ${url}: ${lhr.runtimeError.code}, once more`);
      return audit(port, url, preset, keepStorage, attempt + 1);
    }
    throw new Error(`${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  }
  return lhr;
}

async function main() {
  if (!fs.existsSync(CHROMIUM_PATH)) throw new Error(`Chromium not found at ${CHROMIUM_PATH}: apt-get install chromium`);
  buildIfNeeded();
  await startApi();
  const product = await pickProduct();
  const pages = [
    { name: 'home', path: '/' },
    { name: 'shop', path: '/shop' },
    { name: 'product', path: `/product/${product.slug}` },
    { name: 'journal', path: '/journal' },
    // robots.txt keeps crawlers out of /checkout on purpose: Lighthouse's is-crawlable audit then fails
    // (SEO 66), which is the intent, so the SEO goal does not apply to it (the score is still shown).
    { name: 'checkout', path: '/checkout', cart: true, notIndexed: true },
  ]
    .filter((p) => !process.env.BENCH_PAGES || process.env.BENCH_PAGES.split(',').includes(p.name))
    .concat(
      (process.env.BENCH_EXTRA_PATHS ?? '')
        .split(',')
        .filter(Boolean)
        .map((extra) => ({ name: extra.replace(/\W+/g, '-'), path: extra })),
    );
  const port = await startChromium();
  fs.mkdirSync(REPORT_DIR, { recursive: true });

  console.log(`\nLighthouse ${createRequire(import.meta.url)('lighthouse/package.json').version}, ${CHROMIUM_PATH}, ${ORIGIN}`);
  console.log('Performance figures are noisy on a shared 2-core machine: an indication, not a measurement.\n');
  const rows = [];
  const findings = [];
  for (const preset of PRESETS) {
    for (const page of pages) {
      const started = Date.now();
      const runs = [];
      for (let i = 0; i < RUNS; i += 1) {
        if (page.cart) await prepareCart(port, product);
        runs.push(await audit(port, ORIGIN + page.path, preset, Boolean(page.cart)));
      }
      const lhr = medianRun(runs);
      fs.writeFileSync(path.join(REPORT_DIR, `${preset}-${page.name}.json`), JSON.stringify(lhr));
      const a = lhr.audits;
      const row = {
        preset,
        page: page.path,
        notIndexed: Boolean(page.notIndexed),
        ...Object.fromEntries(CATEGORIES.map((c) => [c, lhr.categories[c]?.score ?? null])),
        lcp: `${((a['largest-contentful-paint']?.numericValue ?? 0) / 1000).toFixed(1)} s`,
        tbt: `${Math.round(a['total-blocking-time']?.numericValue ?? 0)} ms`,
        cls: (a['cumulative-layout-shift']?.numericValue ?? 0).toFixed(3),
      };
      rows.push(row);
      const spread = RUNS > 1 ? ` (performance ${runs.map((r) => round(r.categories.performance?.score)).join(', ')}; median shown)` : '';
      console.log(`  ${preset} ${page.path}: done in ${((Date.now() - started) / 1000).toFixed(0)} s${spread}`);
      for (const category of CATEGORIES.filter((c) => c !== 'performance')) {
        for (const ref of lhr.categories[category]?.auditRefs ?? []) {
          const result = a[ref.id];
          if (ref.weight > 0 && result && result.score !== null && result.score < 1)
            findings.push(`${preset} ${page.path} [${category}] ${ref.id}: ${result.title}`);
        }
      }
      if (a['errors-in-console']?.details?.items?.length) {
        for (const item of a['errors-in-console'].details.items)
          findings.push(`${preset} ${page.path} console: ${item.source} ${String(item.description).slice(0, 160)}`);
      }
    }
  }

  const header = ['preset', 'page', 'perf', 'a11y', 'best pr.', 'SEO', 'LCP', 'TBT', 'CLS'];
  const table = rows.map((r) => [
    r.preset,
    r.page,
    round(r.performance),
    round(r.accessibility),
    round(r['best-practices']),
    round(r.seo),
    r.lcp,
    r.tbt,
    r.cls,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((t) => t[i].length)));
  const line = (cells) => cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  console.log(`\n${line(header)}`);
  for (const t of table) console.log(line(t));

  if (findings.length) {
    console.log('\nAudits that cost points (accessibility, best practices, SEO) and console errors:');
    for (const f of findings) console.log(`  ${f}`);
  }
  const misses = rows.flatMap((r) =>
    CATEGORIES.filter(
      (c) =>
        (c !== 'performance' || r.preset === 'mobile') &&
        !(c === 'seo' && r.notIndexed) &&
        r[c] !== null &&
        Math.round(r[c] * 100) < GOALS[c],
    ).map((c) => `${r.preset} ${r.page} ${c} ${round(r[c])} < ${GOALS[c]}`),
  );
  console.log(
    `\n${misses.length ? 'BELOW GOAL' : 'PASS'}: mobile performance >= 95, accessibility, best practices and SEO 100 on every page (SEO: pages robots.txt lets crawlers index)`,
  );
  for (const m of misses) console.log(`  ${m}`);
  console.log(`Reports: ${path.relative(REPO_ROOT, REPORT_DIR)}/<preset>-<page>.json`);
  return misses.length === 0;
}

let ok = false;
try {
  ok = await main();
} catch (error) {
  console.error(`bench failed: ${error instanceof Error ? error.message : String(error)}`);
} finally {
  await stopAll();
}
process.exit(ok ? 0 : 1);
