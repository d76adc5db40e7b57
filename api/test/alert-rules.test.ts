/**
 * The alert rules work, not just parse: `promtool test rules` (Debian package `prometheus`; `.ci/run`
 * installs it) evaluates ops/prometheus/alerts.yml against the synthetic series of alerts.test.yml (and
 * alerts.weekly.test.yml, evaluated hourly, for the rule that looks back a week), and every alert has a
 * case in which it fires and one in which it stays silent.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../src/lib/config';

const DIR = path.join(REPO_ROOT, 'ops/prometheus');
const TEST_FILES = ['alerts.test.yml', 'alerts.weekly.test.yml'];

function promtool(...args: string[]): { status: number | null; output: string } {
  const run = spawnSync('promtool', args, { cwd: DIR, encoding: 'utf8', timeout: 60_000 });
  if (run.error) throw new Error(`promtool could not run (${run.error.message}): install Debian's prometheus package (apt-get install -y prometheus)`);
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

interface RuleTests {
  rule_files: string[];
  tests: Array<{ name: string; alert_rule_test?: Array<{ alertname: string; exp_alerts: unknown[] }> }>;
}

describe('the alert rules (promtool)', () => {
  it('promtool is installed', () => {
    expect(execFileSync('promtool', ['--version'], { encoding: 'utf8' })).toMatch(/promtool, version/);
  });

  it('check rules: alerts.yml is valid', () => {
    const { status, output } = promtool('check', 'rules', 'alerts.yml');
    expect(output).toMatch(/SUCCESS: \d+ rules found/);
    expect(status, output).toBe(0);
  });

  it('test rules: every case of the test files passes', () => {
    const { status, output } = promtool('test', 'rules', ...TEST_FILES);
    expect(status, output).toBe(0);
    expect(output.match(/SUCCESS/g)).toHaveLength(TEST_FILES.length);
  });

  it('every alert has a case where it fires and one where it stays silent', () => {
    const alerts = (parse(fs.readFileSync(path.join(DIR, 'alerts.yml'), 'utf8')) as { groups: Array<{ rules: Array<{ alert: string }> }> }).groups.flatMap((g) => g.rules.map((r) => r.alert));
    const files = TEST_FILES.map((file) => parse(fs.readFileSync(path.join(DIR, file), 'utf8')) as RuleTests);
    for (const file of files) expect(file.rule_files).toEqual(['alerts.yml']);
    const checks = files.flatMap((file) => file.tests.flatMap((t) => t.alert_rule_test ?? []));
    for (const alert of alerts) {
      const own = checks.filter((c) => c.alertname === alert);
      expect(own.some((c) => c.exp_alerts.length > 0), `${alert} fires somewhere`).toBe(true);
      expect(own.some((c) => c.exp_alerts.length === 0), `${alert} stays silent somewhere`).toBe(true);
    }
    // No test names an alert that does not exist (promtool would just expect nothing of it).
    for (const check of checks) expect(alerts, check.alertname).toContain(check.alertname);
  });
});
