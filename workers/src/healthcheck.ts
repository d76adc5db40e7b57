// `node workers/dist/healthcheck.js`: the worker container's health check (exit 0 healthy, 1 not).
import { loadWorkerConfig } from './lib/config';
import { heartbeatFresh } from './heartbeat';

const config = loadWorkerConfig();
const fresh = await heartbeatFresh(config.HEARTBEAT_FILE, config.HEARTBEAT_INTERVAL_MS * 3);
process.exit(fresh ? 0 : 1);
