/**
 * The API's listeners: the app on PORT, and the internal listener on METRICS_PORT when it is set
 * (`/metrics` without a token, `/healthz`, `/readyz`). `drain()` is the shutdown: readiness answers 503
 * ("draining") from that moment, the server keeps serving for SHUTDOWN_DELAY_MS (the load balancer's
 * probe needs that long to notice; answers say `Connection: close` meanwhile), then stops taking
 * connections and closes its idle ones (those
 * whose request is answered too, rather than after keepAliveTimeout), and the promise resolves once the
 * requests in flight are answered and the work they answered before it was done (lib/after-answer.ts)
 * has finished. The METRICS_PORT listener stays up
 * until `close()`, so the 503 can be seen there while the public port no longer accepts connections.
 */
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startMetricsServer, type MetricsServer } from '@nh/server/observability/metrics';
import type { AppContext } from './lib/context';
import { readiness } from './modules/health/routes';
import type { AppServices } from './modules';

export interface ApiServer {
  server: Server;
  port: number;
  metrics: MetricsServer | null;
  /**
   * Marks the process draining (readiness 503), keeps serving for `delayMs` (SHUTDOWN_DELAY_MS; each
   * answer then says `Connection: close`), then stops taking connections; resolves when the requests in
   * flight are answered (and their after-answer work done).
   */
  drain: (delayMs?: number) => Promise<void>;
  /** Closes the METRICS_PORT listener (after `drain`). */
  close: () => Promise<void>;
}

export async function listenApi(
  ctx: AppContext,
  services: Pick<AppServices, 'lifecycle' | 'metrics' | 'afterAnswer'>,
  listener: RequestListener,
): Promise<ApiServer> {
  const { config } = ctx;
  const server = createServer(listener);
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.PORT, config.HOST, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const metrics =
    config.METRICS_PORT === undefined
      ? null
      : await startMetricsServer({ port: config.METRICS_PORT, host: config.HOST, registry: services.metrics, ready: readiness(ctx, services.lifecycle), log: ctx.log }).catch(
          async (error: unknown) => {
            await new Promise((resolve) => server.close(resolve));
            throw error;
          },
        );
  let drained: Promise<void> | null = null;
  return {
    server,
    port: (server.address() as AddressInfo).port,
    metrics,
    drain: (delayMs = config.SHUTDOWN_DELAY_MS) =>
      (drained ??= new Promise<void>((resolve) => {
        services.lifecycle.draining = true;
        // While the load balancer has not noticed the 503 yet it still sends requests here: serve them, but
        // ask each client to reconnect (to another process) rather than keep this connection.
        server.prependListener('request', (_req, res) => {
          if (!res.headersSent) res.setHeader('Connection', 'close');
        });
        const close = () => {
          // A keep-alive connection whose request finishes stays open (idle) until keepAliveTimeout: close
          // idle ones until the last request in flight is answered.
          const idle = setInterval(() => server.closeIdleConnections(), 100);
          server.close(() => {
            clearInterval(idle);
            // Work the last requests answered before it was done (a reset request's email) finishes too.
            void services.afterAnswer.settled().then(resolve);
          });
          server.closeIdleConnections();
        };
        if (delayMs > 0) setTimeout(close, delayMs);
        else close();
      })),
    close: async () => {
      await metrics?.close();
    },
  };
}
