/** The emails' jobs: their handlers get the mailer besides what every job gets (runtime.ts makes it). */
import { jobDefiner, type JobContext } from '../jobs/define';
import type { Mailer } from './mail/transport';

export type EmailJobContext = JobContext & { mailer: Mailer };

export const defineJob = jobDefiner<EmailJobContext>();
