/**
 * `npm run bench:ssr`: what the server render costs a page. Starts the real API (the app with its
 * server render from web/dist-server; `npm run build` first) on its own database (`nurture_home_bench_ssr`
 * unless DATABASE_URL is set), migrated and seeded,
 * then asks for a product page, a category, the shop and the home page BENCH_REQUESTS times each
 * (default 200), one at a time, and prints the median and p95 time to the whole document, beside the
 * same pages with the render off (the empty root the browser fills in). Sequential on purpose: it
 * measures a page's latency, not the machine's throughput.
 */
import fs from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createDb } from '@nh/server/db/client';
import { createLogger } from '@nh/server/observability/logger';
import { createRedis } from '@nh/server/runtime/redis';
import { seedDemoCatalogue } from '@nh/server/seed/seed';
import { applyMigrations, ensureDatabase } from '@nh/server/runtime/database';
import { createApp } from '../src/app';
import { loadApiConfig } from '../src/lib/config';
import { entryServerPath } from '../src/modules/seo/server-render';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);

async function main() {
  const config = loadApiConfig({
    DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/nurture_home_bench_ssr',
    ...process.env,
    LOG_LEVEL: 'silent',
    PORT: '0',
  });
  if (!fs.existsSync(entryServerPath(config.WEB_DIST))) throw new Error('web/dist-server is missing: run `npm run build` first');
  await ensureDatabase(config.DATABASE_URL);
  await applyMigrations(config.DATABASE_URL);
  const db = createDb({ url: config.DATABASE_URL });
  await seedDemoCatalogue(db);
  const redis = createRedis(config.REDIS_URL);
  const log = createLogger('bench-ssr', 'silent');
  const [{ slug: product }] = (
    await db.$client.query<{ slug: string }>(`select slug from products where status = 'active' order by id limit 1`)
  ).rows as [{ slug: string }];
  const [{ slug: category }] = (await db.$client.query<{ slug: string }>(`select slug from categories order by id limit 1`)).rows as [
    { slug: string },
  ];
  const paths = [`/product/${product}`, `/shop/${category}`, '/shop', '/'];

  const start = async (webDist: string) => {
    const server = createServer(createApp({ config: { ...config, WEB_DIST: webDist }, db, readDb: db, redis, log }).listener);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
  };
  const measure = async (url: string, path: string) => {
    const times: number[] = [];
    let bytes = 0;
    for (let i = 0; i < REQUESTS + 10; i++) {
      const t0 = performance.now();
      const res = await fetch(url + path, { headers: { accept: 'text/html', 'accept-encoding': 'identity' } });
      const body = await res.text();
      if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
      if (i >= 10) times.push(performance.now() - t0); // the first ten warm up (code loading, caches)
      bytes = body.length;
    }
    times.sort((a, b) => a - b);
    const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!.toFixed(1);
    return { median: at(0.5), p95: at(0.95), kb: (bytes / 1024).toFixed(1) };
  };

  const rendered = await start(config.WEB_DIST);
  // The same build without its server render: a copy of web/dist in a folder with no dist-server beside it.
  const plainDist = fs.mkdtempSync('/tmp/bench-ssr-');
  fs.cpSync(config.WEB_DIST, `${plainDist}/dist`, { recursive: true });
  const plain = await start(`${plainDist}/dist`);
  console.log(`${REQUESTS} sequential requests per page; ms to the whole document (median / p95), its size`);
  for (const path of paths) {
    const ssr = await measure(rendered.url, path);
    const empty = await measure(plain.url, path);
    console.log(
      `${path.padEnd(48)} rendered ${ssr.median} / ${ssr.p95} ms, ${ssr.kb} KB   empty root ${empty.median} / ${empty.p95} ms, ${empty.kb} KB`,
    );
  }
  for (const { server } of [rendered, plain]) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  fs.rmSync(plainDist, { recursive: true, force: true });
  await Promise.allSettled([db.$client.end(), redis.quit()]);
}

await main();
