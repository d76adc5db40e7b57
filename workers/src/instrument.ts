/**
 * The worker's preload: `node --import ./workers/dist/instrument.js workers/dist/main.js` (Procfile,
 * compose, scripts/start.sh), `tsx --import ./workers/src/instrument.ts workers/src/main.ts` in
 * development. With OTEL_EXPORTER_OTLP_ENDPOINT set it starts OpenTelemetry tracing before main.ts
 * imports pg, ioredis and node:http, so their instrumentation can hook them; unset, it loads nothing.
 */
import { startTracing } from '@nh/server/observability/tracing';

await startTracing({ serviceName: 'nurture-home-worker' });
