/**
 * One-click action links in the plan emails (issue 22; docs/decisions/subscriptions.md, "One-click actions
 * from emails"): skip this delivery, delay two weeks, ship now, change to every N months, cancel. Each link
 * is a token for one plan, one delivery (billing period) and one action, made here as the email is sent
 * (inside the send's transaction, like the other emailed links: define-email.ts), stored as its hash
 * (@nh/server email-actions queries). The raw token is only in the message: never in the job's data, the
 * outbox, the job's result or a log line. A job run again for the same email replaces the earlier tokens
 * of the same purposes (one live link each), so a retried job leaves no trail of working links.
 */
import { SHOP } from '@nh/shared/constants';
import { emailActionLabel, emailActionPath, type EmailAction } from '@nh/shared/contracts/email-actions';
import { mintEmailActionToken } from '@nh/server/queries/subscriptions/email-actions';
import type { Queryable } from '@nh/server/queries/subscriptions/plan';
import type { EmailWithSecret } from './define-email';
import { escapeHtml, type Content } from './mail/layout';

export interface EmailActionLinkRequest {
  subscriptionId: string;
  /** yyyy-MM-dd (UTC): the delivery the link acts on (the plan's next billing period). */
  periodDate: string;
  action: EmailAction;
  /** The new cadence (months) of a `cadence` link. */
  intervalCount?: number;
}

/**
 * The link (absolute URL of the page /email-actions/{token}) for one action on one delivery of a plan,
 * its token made and stored (hashed) now, replacing any earlier link of the same purpose; null when that
 * purpose's link was used already. Call it inside the email's send transaction (`client`: the send's
 * connection, EmailWithSecret.mint's `tx`), so only a sent email's links work.
 */
export async function mintEmailActionLink(
  client: Queryable,
  { subscriptionId, periodDate, action, intervalCount }: EmailActionLinkRequest,
): Promise<string | null> {
  const token = await mintEmailActionToken(client, {
    subscriptionId,
    period: periodDate,
    action,
    intervalCount: action === 'cadence' ? intervalCount : 0,
  });
  return token === null ? null : `${SHOP.siteUrl}${emailActionPath(token)}`;
}

export interface ActionLink {
  action: EmailAction;
  label: string;
  url: string;
}

export type ActionChoice = { action: Exclude<EmailAction, 'cadence'> } | { action: 'cadence'; intervalCount: number };

/** The cadence links a plan is offered: every offered cadence (PLAN_CADENCE_MONTHS) but its own. */
export const cadenceChoices = (offered: readonly number[] | undefined, current: number): ActionChoice[] =>
  (offered ?? []).filter((m) => m !== current).map((intervalCount) => ({ action: 'cadence' as const, intervalCount }));

/** Every link of `choices` for the delivery, made now (a purpose whose link was used is left out). */
export async function mintActionLinks(
  client: Queryable,
  subscriptionId: string,
  periodDate: string,
  choices: readonly ActionChoice[],
): Promise<ActionLink[]> {
  const links: ActionLink[] = [];
  for (const choice of choices) {
    const intervalCount = choice.action === 'cadence' ? choice.intervalCount : 0;
    const url = await mintEmailActionLink(client, { subscriptionId, periodDate, action: choice.action, intervalCount });
    if (url) links.push({ action: choice.action, label: emailActionLabel(choice.action, intervalCount), url });
  }
  return links;
}

/**
 * An email with action links for one delivery: the links are made in the send's transaction (once the
 * email log says it was not sent yet), and the message built around them.
 */
export function withActionLinks(o: {
  subjectId: string;
  to: string;
  subscriptionId: string;
  periodDate: string;
  choices: readonly ActionChoice[];
  message: (links: ActionLink[]) => Content;
}): EmailWithSecret {
  let links: ActionLink[] = [];
  return {
    subjectId: o.subjectId,
    to: o.to,
    mint: async (tx) => {
      links = await mintActionLinks(tx, o.subscriptionId, o.periodDate, o.choices);
      // Not a secret itself: the links are kept for `message` (an email still goes when every link was used).
      return 'links';
    },
    message: () => o.message(links),
  };
}

const INTRO = 'One click, no sign-in needed (each link asks you to confirm first):';

/** The links as the text part lists them. */
export const actionLinksText = (links: readonly ActionLink[]): string[] =>
  links.length === 0 ? [] : ['', INTRO, ...links.map((l) => `  ${l.label}: ${l.url}`)];

/** The links as buttons. */
export const actionLinksHtml = (links: readonly ActionLink[]): string =>
  links.length === 0
    ? ''
    : `\n<p data-email-actions>${escapeHtml(INTRO)}<br>${links
        .map(
          (l) =>
            `<a href="${escapeHtml(l.url)}" data-email-action="${escapeHtml(l.action)}" style="display:inline-block;margin:6px 6px 0 0;padding:8px 14px;border:1px solid #2f5d3a;border-radius:6px;color:#2f5d3a;font-weight:bold;text-decoration:none">${escapeHtml(l.label)}</a>`,
        )
        .join(' ')}</p>`;
