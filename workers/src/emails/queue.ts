/**
 * The emails queue: every email the shop sends, one module each, found by its kind. The kinds are
 * @nh/shared's EMAIL_KINDS (the one list of emails, with staff's words for each); the email of kind `k` is
 * `./k.ts`, exporting its job as `email` (`defineEmail({ name: 'k', … })`). A new email is its module and
 * its line in EMAIL_KINDS: nothing here names it.
 *
 * The modules are loaded as this file is (a top-level await, so whatever imports the registry gets every
 * email), and checked: a kind without its module, or a module whose `email` is missing or named otherwise,
 * stops the start. The import is a template literal, which esbuild bundles (every module of this folder)
 * and vitest and tsx resolve at run time.
 */
import { EMAIL_KINDS } from '@nh/shared/contracts/emails';
import { defineQueue, type AnyJobDefinition } from '../jobs/define';
import type { EmailJobContext } from './job';

export type EmailJob = AnyJobDefinition<'emails', EmailJobContext>;

/** The module of an email kind (vite cannot make a glob of its own folder: it leaves the import to run time, as wanted). */
const emailModule = (kind: string): Promise<unknown> => import(/* @vite-ignore */ `./${kind}.ts`);

/** Each kind's job, from its module (`load`); throws, naming the kind, for a module missing, without its `email`, or naming it otherwise. */
export async function loadEmailJobs(kinds: readonly string[], load: (kind: string) => Promise<unknown> = emailModule): Promise<EmailJob[]> {
  return Promise.all(
    kinds.map(async (kind) => {
      const loaded = await load(kind).catch((error: unknown) => {
        throw new Error(`email "${kind}": its module ./${kind}.ts could not be loaded`, { cause: error });
      });
      const job = (loaded as { email?: Partial<EmailJob> }).email;
      if (job?.queue !== 'emails' || typeof job.handler !== 'function') throw new Error(`email "${kind}": ./${kind}.ts exports no \`email\` made by defineEmail`);
      if (job.name !== kind) throw new Error(`email "${kind}": ./${kind}.ts names its email "${job.name}"`);
      return job as EmailJob;
    }),
  );
}

export const emailsQueue = defineQueue({
  name: 'emails',
  jobs: await loadEmailJobs(Object.keys(EMAIL_KINDS)),
  worker: (config) => ({ concurrency: config.EMAIL_CONCURRENCY }),
});
