/**
 * Work a request starts and answers before it is done, so that how long the answer takes says nothing
 * about the work: a password reset request or a guest's order lookup answers alike, in words and in
 * time, whether or not the address has an account or the order matched (no account enumeration by
 * timing; docs/decisions/security-review.md).
 *
 * The work runs in the request's async context, so its request id still reaches the outbox rows it
 * writes and its log lines. A failure is logged as an error with that id, never lost silently (the
 * person was told an email is on its way). The API's drain (server.ts) waits for work still running.
 */
import { loggableError, type Logger } from '@nh/server/observability/logger';

export interface AfterAnswer {
  /** Starts `work` without waiting for it; `what` names it in the error line should it fail. */
  run(log: Logger, what: string, work: () => Promise<unknown>): void;
  /** Resolves once every piece of work started so far has finished. */
  settled(): Promise<void>;
}

export function createAfterAnswer(): AfterAnswer {
  const running = new Set<Promise<void>>();
  return {
    run(log, what, work) {
      const task = (async () => {
        try {
          await work();
        } catch (error) {
          log.error({ err: loggableError(error) }, `${what} failed after the request was answered`);
        }
      })();
      running.add(task);
      void task.finally(() => running.delete(task));
    },
    async settled() {
      while (running.size > 0) await Promise.allSettled([...running]);
    },
  };
}
