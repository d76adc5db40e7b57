/**
 * The release step's preload: `node --import ./migrations/dist/instrument.js migrations/dist/migrate.js`
 * (and seed.js; Procfile, compose, scripts/start.sh). With OTEL_EXPORTER_OTLP_ENDPOINT set it starts
 * OpenTelemetry tracing before the script imports pg, so a migration's statements are spans of its trace;
 * unset, it loads nothing of OpenTelemetry.
 */
import { startTracing } from './observability/tracing';

await startTracing({ serviceName: 'nurture-home-release' });
