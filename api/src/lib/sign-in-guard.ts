/**
 * The sign-in limits, one rule for staff and shoppers (issue 19), after Auth0's brute-force protection,
 * OWASP's authentication cheat sheet and NIST SP 800-63B (5.2.2): a stranger may stop their own
 * guessing, never the account holder's sign-in.
 *
 * - **Hard limits** (429 with the realm's shipped message, even to the right password): failed sign-ins
 *   per (account, client address), LOGIN_FAILURES_PER_15_MIN, and per client address whatever the
 *   account, LOGIN_ADDRESS_FAILURES_PER_15_MIN. Addresses are keyed as every limit keys them
 *   (`clientAddressKey`: an IPv6 address by its /56). The 429 carries Retry-After.
 * - **The account-wide count** (failures from every address) never refuses. Once it reaches
 *   LOGIN_FAILURES_PER_15_MIN, an answer to a browser that has not signed in to the account before waits
 *   first: SIGN_IN_DELAY_FIRST_MS, doubling with each further failure, at most SIGN_IN_DELAY_MAX_MS. The
 *   wait comes before the password is checked, right or wrong, so its length says nothing about the
 *   password; a known browser (./known-browser.ts) never waits. At that same count the account's holder
 *   is told by email, once per window.
 * - Why a wait and not a "try again in N seconds" refusal: someone guessing from many addresses would
 *   keep such a refusal renewed, and the owner on a new phone could then never get in. A wait is
 *   bounded: the right password gets in from anywhere within a few seconds. The guessing itself is
 *   bounded by the hard limits; the wait only makes each guess slower.
 * - An attempt is counted from its start (guesses sent at once cannot slip past the count) and
 *   uncounted when it signs in; a sign-in also clears its (account, address) count. A completed
 *   password reset clears all counts of the account (`clearSignInFailures`).
 *
 * One account's counts are one Redis hash under RATE_LIMIT_PREFIX (fields: `all`, one per address,
 * `told`), named by a hash of the realm and email (no address in a key), expiring 15 minutes after the
 * account's first counted failure (a fixed window, as the other limits'). The per-address limit is the
 * ordinary Redis limiter. If Redis cannot be reached the guard lets the sign-in through and logs it, as
 * every limiter does.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import { recordOutbox } from '@nh/server/queries/outbox';
import { OUTBOX_TOPICS } from '@nh/shared/contracts/outbox';
import type { AppContext } from './context';
import { AppError } from './errors';
import type { KnownBrowsers, SignInRealm } from './known-browser';
import { clientAddressKey, createLimiter } from './rate-limit';

/** The first wait once the account-wide count is reached; each further failure doubles it. */
export const SIGN_IN_DELAY_FIRST_MS = 500;
/** The longest wait. */
export const SIGN_IN_DELAY_MAX_MS = 4000;
const WINDOW_MS = 15 * 60 * 1000;

/** How long an unknown browser waits when `earlier` attempts on the account were counted in the window. */
export function signInDelayMs(earlier: number, threshold: number): number {
  if (earlier < threshold) return 0;
  return Math.min(SIGN_IN_DELAY_MAX_MS, SIGN_IN_DELAY_FIRST_MS * 2 ** Math.min(earlier - threshold, 16));
}

/** The Redis key of one account's counts (RATE_LIMIT_PREFIX; the email hashed). */
function countsKey(ctx: Pick<AppContext, 'config'>, realm: SignInRealm, email: string): string {
  const account = createHash('sha256').update(`${realm}\n${email}`).digest('base64url');
  return `${ctx.config.RATE_LIMIT_PREFIX}:sign-in:${account}`;
}

// Counts one attempt unless its (account, address) budget is spent: {all, 0} or {0, ms left in the window}.
const BEGIN = `
local n = redis.call('HINCRBY', KEYS[1], ARGV[1], 1)
if n > tonumber(ARGV[2]) then
  redis.call('HINCRBY', KEYS[1], ARGV[1], -1)
  return {0, redis.call('PTTL', KEYS[1])}
end
local all = redis.call('HINCRBY', KEYS[1], 'all', 1)
if redis.call('PTTL', KEYS[1]) < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[3]) end
return {all, 0}`;
// A sign-in: its attempt uncounted and its address's count cleared (nothing when the window is gone).
const SUCCEEDED = `
if redis.call('EXISTS', KEYS[1]) == 1 then
  redis.call('HDEL', KEYS[1], ARGV[1])
  if tonumber(redis.call('HGET', KEYS[1], 'all') or '0') > 0 then redis.call('HINCRBY', KEYS[1], 'all', -1) end
end
return 0`;
// A failure: the count when the holder is to be told now (the first time it reaches the figure), else 0.
const FAILED = `
local all = tonumber(redis.call('HGET', KEYS[1], 'all') or '0')
if all >= tonumber(ARGV[1]) and redis.call('HSETNX', KEYS[1], 'told', 1) == 1 then return all end
return 0`;

export interface SignInAttempt {
  /** The password was wrong (or the account may not sign in): the attempt stays counted. */
  failed: () => Promise<void>;
  /** Signed in: the attempt is uncounted and the browser remembered for the account. */
  succeeded: () => Promise<void>;
}

export interface SignInGuard {
  /** Failed sign-ins per client address, whatever the account (before the body is read). */
  addressLimit: RequestHandler;
  /**
   * Starts an attempt on the account of `email` (trimmed, lower case): refuses it (429) when its
   * (account, address) budget is spent, waits when the account-wide count calls for it.
   */
  begin: (req: Request, res: Response, email: string) => Promise<SignInAttempt>;
}

export interface SignInGuardOptions {
  realm: SignInRealm;
  /** The 429 answer (a shipped message). */
  message: string;
  known: KnownBrowsers;
  /** The id of the account of `email` to tell about failed sign-ins, or null when there is none to tell (unknown, disabled). */
  holderOf: (email: string) => Promise<string | null>;
}

export function createSignInGuard(ctx: AppContext, { realm, message, known, holderOf }: SignInGuardOptions): SignInGuard {
  /** The email to the holder (workers/src/emails/sign-in-failures.ts), through the outbox. */
  const tellHolder = async (email: string, failures: number, requestId: string | null) => {
    const accountId = await holderOf(email);
    if (!accountId) return;
    await recordOutbox(ctx.db, OUTBOX_TOPICS.signInFailures, { account: realm, accountId, alertId: randomUUID(), failures }, requestId);
  };
  const perAccountAddress = ctx.config.LOGIN_FAILURES_PER_15_MIN;
  const addressLimit = createLimiter(ctx, {
    name: realm === 'staff' ? 'staff-login-address' : 'login-address',
    windowMs: WINDOW_MS,
    limit: ctx.config.LOGIN_ADDRESS_FAILURES_PER_15_MIN,
    count: 'failures',
    message,
  }).middleware;
  const redisDown = (err: unknown) => {
    ctx.log.warn({ err: (err as Error).message, limiter: `${realm}-sign-in` }, 'sign-in counts unavailable');
    return null;
  };
  const run = (script: string, key: string, ...args: Array<string | number>) => ctx.redis.eval(script, 1, key, ...args).catch(redisDown);

  return {
    addressLimit,
    async begin(req, res, email) {
      const key = countsKey(ctx, realm, email);
      const field = `a:${clientAddressKey(req)}`;
      const counted = (await run(BEGIN, key, field, perAccountAddress, WINDOW_MS)) as [number, number] | null;
      if (counted && counted[0] === 0) {
        res.setHeader('Retry-After', String(Math.max(1, Math.ceil(counted[1] / 1000))));
        throw new AppError('RATE_LIMITED', message);
      }
      if (counted && !known.isKnown(req, realm, email)) {
        const wait = signInDelayMs(counted[0] - 1, perAccountAddress);
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      }
      return {
        failed: async () => {
          if (!counted) return;
          const failures = Number(await run(FAILED, key, perAccountAddress));
          if (failures > 0) {
            // After the answer's own work, and not awaited: the answer's timing does not tell whether the account exists.
            tellHolder(email, failures, req.id ?? null).catch((err: unknown) =>
              ctx.log.error({ err, realm }, 'could not record the sign-in failures email'),
            );
          }
        },
        succeeded: async () => {
          known.remember(req, res, realm, email);
          if (counted) await run(SUCCEEDED, key, field);
        },
      };
    },
  };
}

/** Clears every sign-in count of the account of `email` (a completed password reset). */
export async function clearSignInFailures(
  ctx: Pick<AppContext, 'config' | 'redis' | 'log'>,
  realm: SignInRealm,
  email: string,
): Promise<void> {
  await ctx.redis.del(countsKey(ctx, realm, email.trim().toLowerCase())).catch((err: unknown) => {
    ctx.log.warn({ err: (err as Error).message, realm }, 'could not clear the sign-in counts after a reset');
  });
}
