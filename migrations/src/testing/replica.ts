/**
 * A real streaming replica of the local test PostgreSQL, for the tests of DATABASE_READ_URL (issue 24,
 * docs/decisions/scale-out.md "Reads from a replica"): `pg_basebackup -R` of the whole server into a
 * temporary folder, started as a hot standby on a free port with `recovery_min_apply_delay`, so every
 * commit shows on it that long after the primary's (a lag the tests can rely on). `stop()` stops it and
 * removes the folder.
 *
 * Replication connections need a pg_hba.conf line of their own (`all` does not cover them). When the
 * server has none for 127.0.0.1 with trust, the helper appends one (marked with a comment) and reloads
 * the server, so a fresh CI machine needs nothing set up beforehand. The line stays: test files run in
 * parallel, and taking it out while another file's replica connects would break that one; it lets
 * 127.0.0.1 do no more than the test server's `host all all 127.0.0.1/32 trust` already does (read every
 * database as any user). Root runs the PostgreSQL binaries as the `postgres` user (they refuse root), as
 * the PgBouncer helper does.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from './free-port';

export interface Replica {
  /** `databaseUrl` with its host and port replaced by the replica's. */
  urlFor: (databaseUrl: string) => string;
  stop: () => Promise<void>;
}

const HBA_MARK = '# nurture-home tests (migrations/src/testing/replica.ts): streaming replicas of the local server';
const HBA_LINE = 'host replication all 127.0.0.1/32 trust';


const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface HbaRule {
  type: string;
  database: string[];
  user_name: string[];
  address: string | null;
  netmask: string | null;
  auth_method: string;
}

/** The first pg_hba rule a replication connection of `user` from 127.0.0.1 meets (PostgreSQL takes the first match). */
function replicationRule(rules: readonly HbaRule[], user: string): HbaRule | undefined {
  return rules.find(
    (r) =>
      (r.type === 'host' || r.type === 'hostnossl') &&
      r.database.includes('replication') &&
      (r.user_name.includes('all') || r.user_name.includes(user)) &&
      (r.address === 'all' || r.address === 'samehost' || (r.address === '127.0.0.1' && r.netmask === '255.255.255.255') || (r.address === '0.0.0.0' && r.netmask === '0.0.0.0')),
  );
}

/** Makes sure replication connections from 127.0.0.1 are trusted (appends the line once; see above). */
async function allowReplication(admin: pg.Client, user: string): Promise<void> {
  const readRules = async () => (await admin.query<HbaRule>('select type, database, user_name, address, netmask, auth_method from pg_hba_file_rules where error is null order by line_number')).rows;
  const rule = replicationRule(await readRules(), user);
  if (rule?.auth_method === 'trust') return;
  if (rule) throw new Error(`pg_hba.conf asks replication connections from 127.0.0.1 for ${rule.auth_method}; the replica test needs trust`);
  const hbaFile = (await admin.query<{ hba_file: string }>('show hba_file')).rows[0]!.hba_file;
  const before = fs.readFileSync(hbaFile, 'utf8');
  // Another test file may have appended it a moment ago.
  if (!before.includes(`${HBA_MARK}\n${HBA_LINE}\n`)) fs.writeFileSync(hbaFile, `${before.replace(/\n?$/, '\n')}${HBA_MARK}\n${HBA_LINE}\n`);
  await admin.query('select pg_reload_conf()');
  // The reload is asynchronous: the view reads the file, the server its loaded copy; a moment settles both.
  for (let i = 0; i < 50 && replicationRule(await readRules(), user)?.auth_method !== 'trust'; i++) await sleep(50);
  await sleep(200);
}

/** Starts a hot standby of `databaseUrl`'s server whose replay runs `applyDelayMs` behind the primary's commits. */
export async function startReplica(databaseUrl: string, { applyDelayMs = 1500 } = {}): Promise<Replica> {
  const primary = new URL(databaseUrl);
  const user = decodeURIComponent(primary.username || 'postgres');
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nh-replica-'));
  const data = path.join(dir, 'data');
  let child: ReturnType<typeof spawn> | null = null;
  let exited: Promise<void> = Promise.resolve();
  const asRoot = process.getuid?.() === 0;
  const ids = asRoot ? { uid: Number(execFileSync('id', ['-u', 'postgres']).toString()), gid: Number(execFileSync('id', ['-g', 'postgres']).toString()) } : {};
  const cleanUp = async () => {
    if (child && child.exitCode === null) {
      child.kill('SIGINT'); // fast shutdown (immediate, SIGQUIT, waits 5 s for its children)
      await exited;
    }
    fs.rmSync(dir, { recursive: true, force: true });
    await admin.end().catch(() => {});
  };
  try {
    const major = Math.floor(Number((await admin.query<{ v: string }>('select current_setting($$server_version_num$$) as v')).rows[0]!.v) / 10000);
    const bin = `/usr/lib/postgresql/${major}/bin`;
    if (!fs.existsSync(path.join(bin, 'pg_basebackup'))) throw new Error(`${bin}/pg_basebackup is missing: the PostgreSQL ${major} server binaries are needed for the replica test`);
    await allowReplication(admin, user);
    if (asRoot) fs.chownSync(dir, ids.uid!, ids.gid!);
    const port = await freePort();
    execFileSync(path.join(bin, 'pg_basebackup'), ['-h', primary.hostname, '-p', primary.port || '5432', '-U', user, '-D', data, '-R', '-X', 'stream', '-c', 'fast'], {
      ...ids,
      stdio: 'pipe',
    });
    // A Debian cluster keeps its configuration outside the data folder: the standby gets its own.
    const conf = {
      'postgresql.conf': `port = ${port}
listen_addresses = '127.0.0.1'
unix_socket_directories = '${dir}'
hot_standby = on
recovery_min_apply_delay = '${applyDelayMs}ms'
shared_buffers = 16MB
fsync = off
`,
      'pg_hba.conf': 'local all all trust\nhost all all 127.0.0.1/32 trust\n',
      'pg_ident.conf': '',
    };
    for (const [name, text] of Object.entries(conf)) {
      fs.writeFileSync(path.join(data, name), text);
      if (asRoot) fs.chownSync(path.join(data, name), ids.uid!, ids.gid!);
    }
    const log = fs.openSync(path.join(dir, 'postgres.log'), 'a');
    child = spawn(path.join(bin, 'postgres'), ['-D', data], { ...ids, stdio: ['ignore', log, log] });
    const started = child;
    exited = new Promise<void>((resolve) => started.once('exit', () => resolve()));
    const url = (databaseUrl_: string) => {
      const replica = new URL(databaseUrl_);
      replica.hostname = '127.0.0.1';
      replica.port = String(port);
      return replica.toString();
    };
    // Ready once it answers as a standby.
    for (const end = Date.now() + 30_000; ; ) {
      const probe = new pg.Client({ connectionString: url(databaseUrl) });
      const inRecovery = await probe
        .connect()
        .then(async () => (await probe.query<{ r: boolean }>('select pg_is_in_recovery() as r')).rows[0]!.r)
        .catch(() => null)
        .finally(() => probe.end().catch(() => {}));
      if (inRecovery === true) break;
      if (Date.now() > end || started.exitCode !== null) throw new Error(`the replica did not start: ${fs.readFileSync(path.join(dir, 'postgres.log'), 'utf8').slice(-800)}`);
      await sleep(100);
    }
    return { urlFor: url, stop: cleanUp };
  } catch (error) {
    await cleanUp();
    throw error;
  }
}
