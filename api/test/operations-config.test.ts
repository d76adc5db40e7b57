/**
 * The operators' files load as they are: the Prometheus rules and scrape config, the Grafana dashboard
 * and provisioning, and the compose profile wiring them; every metric they name is one the API or the
 * worker exports (a renamed metric would silently blank a panel or an alert).
 */
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../src/lib/config';

const read = (file: string) => fs.readFileSync(path.join(REPO_ROOT, file), 'utf8');

/** The files that define the shop's metrics (the replica's lag is the API's own, made only with DATABASE_READ_URL). */
const METRIC_FILES = ['migrations/src/observability/metrics.ts', 'workers/src/metrics.ts', 'api/src/modules/health/replica-lag.ts'];

/** Metric names defined in the sources (`name: 'nh_…'`), with a histogram's series suffixes. */
function exportedMetricNames(): Set<string> {
  const names = new Set<string>();
  for (const file of METRIC_FILES) {
    for (const m of read(file).matchAll(/name: '(nh_[a-z0-9_]+)'/g)) names.add(m[1]!);
  }
  for (const name of [...names]) for (const suffix of ['_bucket', '_sum', '_count']) names.add(`${name}${suffix}`);
  return names;
}

const namedIn = (expr: string) => [...expr.matchAll(/\b(nh_[a-z0-9_]+)/g)].map((m) => m[1]!);

describe('operations config', () => {
  const exported = exportedMetricNames();

  it('the alert rules cover the five conditions, the targets being up and the read replica lag, and name only exported metrics', () => {
    const rules = parse(read('ops/prometheus/alerts.yml')) as { groups: Array<{ rules: Array<{ alert: string; expr: string; annotations: { summary: string } }> }> };
    const all = rules.groups.flatMap((g) => g.rules);
    expect(all.map((r) => r.alert)).toEqual([
      'OutboxLagging',
      'NetSuiteSyncFailing',
      'QueueBacklog',
      'CheckoutErrors',
      'RenewalDeclinesJump',
      'ApiInstanceDown',
      'ApiDown',
      'WorkerInstanceDown',
      'WorkersDown',
      'ReadReplicaLagging',
    ]);
    for (const rule of all) {
      expect(rule.annotations.summary, rule.alert).toBeTruthy();
      const names = namedIn(rule.expr);
      // The target alerts read Prometheus's own `up` (by the scrape job names of prometheus.yml).
      if (/Down$/.test(rule.alert)) expect(rule.expr, rule.alert).toMatch(/\bup\{job="(api|worker)"\}/);
      else expect(names.length, rule.alert).toBeGreaterThan(0);
      for (const name of names) expect(exported.has(name), `${rule.alert}: ${name}`).toBe(true);
    }
  });

  it('no metric of ours has a `job` or `instance` label (Prometheus sets those on every series: ours would become exported_job)', () => {
    for (const file of METRIC_FILES) {
      for (const m of read(file).matchAll(/labelNames: \[([^\]]*)\]/g)) {
        const labels = [...m[1]!.matchAll(/'([^']+)'/g)].map((l) => l[1]!);
        expect(labels, `${file}: ${m[0]}`).not.toContain('job');
        expect(labels, `${file}: ${m[0]}`).not.toContain('instance');
      }
    }
    // The job panels group by the job name label, not by the scrape job.
    const dashboard = read('ops/grafana/dashboards/nurture-home.json');
    expect(dashboard).not.toMatch(/by \((le, )?job\)/);
    expect(dashboard).toContain('sum by (queue, job_name) (rate(nh_job_failures_total[5m]))');
  });

  it('Prometheus scrapes the API and the worker on METRICS_PORT and loads the rules', () => {
    const config = parse(read('ops/prometheus/prometheus.yml')) as { rule_files: string[]; scrape_configs: Array<{ job_name: string; static_configs: Array<{ targets: string[] }> }> };
    expect(config.rule_files).toEqual(['/etc/prometheus/alerts.yml']);
    expect(config.scrape_configs.map((s) => [s.job_name, s.static_configs[0]!.targets])).toEqual([
      ['api', ['web:9464']],
      ['worker', ['worker:9464']],
    ]);
  });

  it('the Grafana dashboard parses and every panel queries exported metrics', () => {
    const dashboard = JSON.parse(read('ops/grafana/dashboards/nurture-home.json')) as { uid: string; panels: Array<{ title: string; targets: Array<{ expr: string }> }> };
    expect(dashboard.uid).toBe('nurture-home');
    expect(dashboard.panels.length).toBeGreaterThanOrEqual(12);
    for (const panel of dashboard.panels) {
      for (const target of panel.targets) {
        for (const name of namedIn(target.expr)) expect(exported.has(name), `${panel.title}: ${name}`).toBe(true);
      }
    }
  });

  it('compose --profile observability adds Prometheus and Grafana (official images) wired to those files', () => {
    const compose = parse(read('docker-compose.yml')) as { services: Record<string, { image?: string; profiles?: string[]; volumes?: string[]; environment?: Record<string, string> }> };
    const { prometheus, grafana, web, worker } = compose.services;
    expect(prometheus?.image).toMatch(/^prom\/prometheus:/);
    expect(grafana?.image).toMatch(/^grafana\/grafana:/);
    expect(prometheus?.profiles).toEqual(['observability']);
    expect(grafana?.profiles).toEqual(['observability']);
    expect(prometheus?.volumes).toEqual(expect.arrayContaining(['./ops/prometheus/alerts.yml:/etc/prometheus/alerts.yml:ro']));
    expect(grafana?.volumes).toEqual(expect.arrayContaining(['./ops/grafana/dashboards:/var/lib/grafana/dashboards:ro']));
    for (const service of [web, worker]) expect(service?.environment?.METRICS_PORT).toBe('9464');
    for (const file of [...(prometheus?.volumes ?? []), ...(grafana?.volumes ?? [])].filter((v) => v.startsWith('./')).map((v) => v.split(':')[0]!)) {
      expect(fs.existsSync(path.join(REPO_ROOT, file)), file).toBe(true);
    }
  });
});
