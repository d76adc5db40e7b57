/**
 * The request id of the work in progress, kept by AsyncLocalStorage: the API enters it for every
 * request that reaches its modules (api/src/lib/request-logger.ts `requestContext`), the workers for
 * every job that carries one (workers/src/jobs/define.ts). The outbox helpers read it (queries/outbox.ts),
 * so every outbox row written while serving a request remembers it without any caller passing it; the
 * relay copies it into the jobs it makes. docs/decisions/observability.md says why this is ambient.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

const storage = new AsyncLocalStorage<{ requestId: string }>();

/** Runs `fn` (and everything it starts) as part of the request `requestId`; without an id, as it is. */
export function runWithRequestId<T>(requestId: string | null | undefined, fn: () => T): T {
  return requestId ? storage.run({ requestId }, fn) : fn();
}

/** The request id of the work in progress, or null outside any request or job that has one. */
export const currentRequestId = (): string | null => storage.getStore()?.requestId ?? null;
