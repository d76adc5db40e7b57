/**
 * The queue dashboard at /admin/queues (bull-board, served by the API): the words the shop adds to it.
 * Owners and managers see it (`queues.view`), managers read-only; only owners change queues
 * (`queues.manage`); job payloads are shown redacted (docs/decisions/security-review.md, section 2).
 */

export const QUEUE_BOARD_MESSAGES = {
  /** The board's header. */
  title: 'Nurture Home queues',
  /** The link in the board's header menu, to /admin. */
  backOffice: 'Back office',
  loading: 'Loading the queues…',
  noAccessTitle: 'You do not have access to the queue dashboard',
  noAccess: (role: string) => `The queue dashboard is for owners and managers, and your role is ${role}. Ask an owner if you need it.`,
  backToBackOffice: 'Back to the back office',
  /** The title of the board's own notice over a refused change. */
  refused: 'Not done',
  /** Adding a job, duplicating one or editing its data on the board (refused for every role). */
  jobDataReadOnly:
    'Jobs and their data are written by the shop itself, and the board shows them redacted, so they cannot be added or edited here. Retry the job instead.',
} as const;
