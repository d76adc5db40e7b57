/**
 * The API's preload: `node --import ./api/dist/instrument.js api/dist/main.js` (Procfile, Dockerfile,
 * compose, scripts/start.sh), `tsx --import ./api/src/instrument.ts api/src/main.ts` in development.
 * With OTEL_EXPORTER_OTLP_ENDPOINT set it starts OpenTelemetry tracing before main.ts imports express,
 * pg and ioredis, so their instrumentation can hook them; unset, it loads nothing of OpenTelemetry.
 */
import { startTracing } from '@nh/server/observability/tracing';

await startTracing({ serviceName: 'nurture-home-api' });
