/**
 * The worker's CPU priority (WORKER_NICE; docs/decisions/checkout.md, "Warm connections across bursts,
 * and the worker's priority"). Its jobs are all asynchronous to shoppers (emails, the NetSuite sync,
 * exports, renewals), while the API answers a shopper who waits. Where both share cores (one host, the Procfile), the worker at a higher
 * nice value gives the CPU to the API (and to Postgres) when both want it, and takes what is left: a
 * burst of checkouts delays emails by seconds instead of every checkout by tens of ms. On a host of its
 * own nothing competes with it, and the nice value changes nothing. A nice value ranks threads within one
 * cgroup only: across containers (or systemd units) the cgroups' CPU weights decide, so docker-compose.yml
 * gives the worker's container `cpu_shares` instead.
 *
 * On Linux a nice value belongs to a thread, not a process: every thread the process already has
 * (/proc/self/task: V8's and libuv's helpers as well as the main one) is set, and threads started later
 * inherit it. A value already higher (`nice -n 15 node …`) is kept: a process may lower its own
 * priority, never raise it back without privileges.
 */
import fs from 'node:fs';
import os from 'node:os';

export interface PriorityOutcome {
  /** The nice value the process runs at now (its main thread's). */
  nice: number;
  /** Threads set to `nice`. */
  threads: number;
  /** Threads that could not be set (each with the system's reason), left as they were. */
  failed: string[];
}

/** The ids of the process's threads on Linux; elsewhere 0, "this process". */
function threadIds(): number[] {
  try {
    return fs
      .readdirSync('/proc/self/task')
      .map(Number)
      .filter((tid) => Number.isInteger(tid) && tid > 0);
  } catch {
    return [0];
  }
}

/** Sets every thread of this process to `nice` (0–19) where it runs at a lower value. */
export function lowerCpuPriority(nice: number): PriorityOutcome {
  const failed: string[] = [];
  let threads = 0;
  for (const tid of threadIds()) {
    try {
      if (os.getPriority(tid) >= nice) continue;
      os.setPriority(tid, nice);
      threads++;
    } catch (error) {
      // A thread that ended meanwhile is no failure; a system that refuses leaves that thread as it was.
      if ((error as { info?: { code?: string } }).info?.code === 'ESRCH') continue;
      failed.push(`${tid}: ${(error as Error).message}`);
    }
  }
  return { nice: os.getPriority(), threads, failed };
}
