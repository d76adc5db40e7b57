/**
 * `nh_db_replica_lag_seconds`: how far DATABASE_READ_URL's replica replays behind the primary, read at
 * scrape time (`pg_last_xact_replay_timestamp()`; 0 when it has replayed all it received). Absent when a
 * scrape's read fails or takes longer than a second. `ReadReplicaLagging` (ops/prometheus/alerts.yml)
 * fires when it stays above 5 s (READ_YOUR_WRITES_MS's default): a person's reads then go back to the
 * replica before their change is there.
 */
import { Gauge } from 'prom-client';
import type { Db } from '@nh/server/db/client';
import { withinTimeout } from '@nh/server/observability/metrics';
import { replicaLagSeconds } from '@nh/server/queries/replica';

export function replicaLagGauge(replica: Db): Gauge {
  return new Gauge({
    name: 'nh_db_replica_lag_seconds',
    help: 'Seconds the read replica (DATABASE_READ_URL) replays behind the primary.',
    registers: [],
    async collect() {
      this.reset();
      const lag = await withinTimeout(() => replicaLagSeconds(replica), 1000, null).catch(() => null);
      if (lag !== null) this.set(lag);
    },
  });
}
