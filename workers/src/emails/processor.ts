/**
 * emails: newsletter welcome (with the subscriber's personal 15% code), order confirmation, shipping
 * notice, and the Subscribe & Save notices (plan welcome; renewal reminder; plan paused after a
 * renewal could not be paid). Each
 * email is sent at most once per (kind, subject id): its email_log row is locked for the send and
 * marked sent in the same transaction. Only a crash between the SMTP answer and the commit can send
 * it twice (at-least-once). SMTP 5xx rejections fail at once; temporary failures are retried.
 * Marketing emails (MARKETING_EMAIL_KINDS) go only to an address on the newsletter list that has not
 * unsubscribed, judged inside that same transaction; order and plan emails go regardless.
 */
import { UnrecoverableError, type Job } from 'bullmq';
import type pg from 'pg';
import { and, desc, eq } from 'drizzle-orm';
import { NEWSLETTER_DISCOUNT_PERCENT, toCents } from '@nh/shared';
import { sqlLiteral, tables, type Address, type Db, type LineItem, type Logger } from '@nh/server';
import { billingPeriodOf } from '@nh/shared/contracts/subscriptions';
import { JOB_NAMES, jobPayloads } from '@nh/server/queues';
import { isPermanentMailError, type MailMessage, type Mailer } from './mail/transport';
import {
  newsletterWelcomeEmail,
  orderConfirmationEmail,
  orderShippedEmail,
  renewalReminderEmail,
  subscriptionPausedEmail,
  subscriptionWelcomeEmail,
  type ConfirmationOrder,
  type ShippedOrder,
  type SubscriptionEmailPlan,
} from './mail/templates';
import { ensureWelcomeCode } from './welcome-code';

export const EMAIL_KINDS = {
  newsletterWelcome: 'newsletter-welcome',
  orderConfirmation: 'order-confirmation',
  /**
   * Subject id: the order id. One notice per order, with the carrier and tracking number the order
   * has when it is sent; a later save of the shipped order (tracking added or changed) sends nothing.
   */
  orderShipped: 'order-shipped',
  /** Subject id: the subscription id. */
  subscriptionWelcome: 'subscription-welcome',
  /** Subject id: `<subscription id>:<billing period>`, so a plan paused again in a later period is told again. */
  subscriptionPaused: 'subscription-paused',
  /** Subject id: `<subscription id>:<billing period>`, one reminder per plan and period however often the sweep runs. */
  renewalReminder: 'renewal-reminder',
} as const;

/**
 * The one list of marketing kinds: each carries the one-click unsubscribe (templates' `marketingEmail`)
 * and is sent only while its address is subscribed. Every other kind is about an order or a plan.
 */
export const MARKETING_EMAIL_KINDS: ReadonlySet<string> = new Set([EMAIL_KINDS.newsletterWelcome]);

export interface EmailDeps {
  db: Db;
  mailer: Mailer;
  log: Logger;
}

/** What an order confirmation shows, in one named (prepared once per connection) query. */
async function loadConfirmationOrder(db: Db, orderId: string): Promise<(ConfirmationOrder & { customerEmail: string }) | undefined> {
  const { rows } = await db.$client.query<{ id: string; customer_email: string; customer_name: string; items: LineItem[]; subtotal: string; discount: string; shipping: string; tax: string; total: string; promo_code: string | null }>({
    name: 'email-confirmation-order',
    text: `select id, customer_email, customer_name, items, subtotal::text, discount::text, shipping::text, tax::text, total::text, promo_code from orders where id = $1`,
    values: [orderId],
  });
  const r = rows[0];
  if (!r) return undefined;
  return {
    id: r.id,
    customerEmail: r.customer_email,
    customerName: r.customer_name,
    items: r.items,
    subtotal: toCents(r.subtotal),
    discount: toCents(r.discount),
    shipping: toCents(r.shipping),
    tax: toCents(r.tax),
    total: toCents(r.total),
    promoCode: r.promo_code,
  };
}

/** What a shipping notice shows, and whether the order is (still) shipped. */
async function loadShippedOrder(db: Db, orderId: string): Promise<(ShippedOrder & { customerEmail: string; status: string }) | undefined> {
  const { rows } = await db.$client.query<{ id: string; customer_email: string; customer_name: string; items: LineItem[]; shipping_address: Address; carrier: string | null; tracking_number: string | null; status: string }>({
    name: 'email-shipped-order',
    text: `select id, customer_email, customer_name, items, shipping_address, carrier, tracking_number, status from orders where id = $1`,
    values: [orderId],
  });
  const r = rows[0];
  if (!r) return undefined;
  return {
    id: r.id,
    customerEmail: r.customer_email,
    customerName: r.customer_name,
    items: r.items,
    shippingAddress: r.shipping_address,
    carrier: r.carrier,
    trackingNumber: r.tracking_number,
    status: r.status,
  };
}

/** "Visa ending in 1111": the card of the plan's latest approved payment (what renewals charge), when known. */
async function savedCard(db: Db, subscriptionId: string): Promise<string | null> {
  const p = tables.paymentTransactions;
  const [card] = await db
    .select({ type: p.cardType, lastFour: p.cardLastFour })
    .from(p)
    .where(and(eq(p.subscriptionId, subscriptionId), eq(p.status, 'approved')))
    .orderBy(desc(p.createdAt))
    .limit(1);
  if (!card?.lastFour) return null;
  return `${card.type || 'card'} ending in ${card.lastFour}`;
}

async function loadSubscription(db: Db, subscriptionId: string) {
  const sub = await db.query.subscriptions.findFirst({ where: eq(tables.subscriptions.id, subscriptionId) });
  if (!sub) return undefined;
  const plan: SubscriptionEmailPlan = {
    customerName: sub.customerName,
    items: sub.items,
    amount: sub.amount,
    discountPercent: sub.discountPercent,
    interval: sub.interval,
    intervalCount: sub.intervalCount,
  };
  return { sub, plan };
}

export type EmailResult = { outcome: 'sent'; messageId: string } | { outcome: 'skipped'; reason: string };

/** Another worker holds this email's row right now; retry later (by then it is sent). */
class EmailBusyError extends Error {}

export function createEmailProcessor({ db, mailer, log }: EmailDeps) {
  async function sendOnce(kind: string, subjectId: string, message: MailMessage, jobLog: Logger): Promise<EmailResult> {
    const client = await db.$client.connect();
    const lit = (value: string | null) => sqlLiteral(client, value);
    const where = `kind = ${lit(kind)} and subject_id = ${lit(subjectId)}`;
    try {
      // One round trip: open the transaction, make sure the row exists, lock it for the send.
      const results = (await client.query(`begin;
        insert into email_log (kind, subject_id, to_address) values (${lit(kind)}, ${lit(subjectId)}, ${lit(message.to)}) on conflict do nothing;
        select id, status from email_log where ${where} for update skip locked`)) as unknown as Array<pg.QueryResult<{ id: number; status: string }>>;
      const row = results[results.length - 1]!.rows[0];
      if (!row) throw new EmailBusyError(`${kind} ${subjectId} is being sent by another worker`);
      if (row.status === 'sent' || row.status === 'failed') {
        await client.query('commit');
        return { outcome: 'skipped', reason: row.status === 'sent' ? 'already sent' : 'rejected earlier' };
      }
      // The outcome and the commit travel together (one round trip).
      const finish = (status: string, messageId: string | null, error: string | null) =>
        client.query(`update email_log set status = ${lit(status)}, message_id = ${lit(messageId)}, error = ${lit(error)}${status === 'sent' ? ', sent_at = now()' : ''} where id = ${row.id}; commit`);
      // Status 'skipped' is not final: should the address sign up again, a later run of this job sends.
      if (MARKETING_EMAIL_KINDS.has(kind)) {
        const subscribed = await client.query(`select 1 from newsletter_subscribers where email = lower(${lit(message.to)}) and unsubscribed_at is null`);
        if (subscribed.rowCount === 0) {
          await finish('skipped', null, 'unsubscribed');
          jobLog.info({ kind }, 'marketing email not sent: the address is not subscribed');
          return { outcome: 'skipped', reason: 'unsubscribed' };
        }
      }
      let messageId: string;
      try {
        ({ messageId } = await mailer.send(message));
      } catch (error) {
        const permanent = isPermanentMailError(error);
        const text = (error as Error).message;
        await finish(permanent ? 'failed' : 'pending', null, text);
        if (permanent) {
          jobLog.error({ kind, err: text }, 'email rejected permanently');
          throw new UnrecoverableError(text);
        }
        throw error;
      }
      await finish('sent', messageId, null);
      jobLog.info({ kind, messageId }, 'email sent');
      return { outcome: 'sent', messageId };
    } catch (error) {
      await client.query('rollback').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }

  return async function sendEmail(job: Job): Promise<EmailResult> {
    const jobLog = log.child({ jobId: job.id, queue: 'emails', job: job.name });
    switch (job.name) {
      case JOB_NAMES.newsletterWelcome: {
        const { subscriberId } = jobPayloads[JOB_NAMES.newsletterWelcome].parse(job.data);
        const subscriber = await db.query.newsletterSubscribers.findFirst({ where: eq(tables.newsletterSubscribers.id, subscriberId) });
        if (!subscriber) return { outcome: 'skipped', reason: 'subscriber not found' };
        const code = await ensureWelcomeCode(db, subscriberId);
        const content = newsletterWelcomeEmail({ code, percent: NEWSLETTER_DISCOUNT_PERCENT, unsubscribeToken: subscriber.unsubscribeToken });
        return sendOnce(EMAIL_KINDS.newsletterWelcome, String(subscriberId), { to: subscriber.email, ...content }, jobLog);
      }
      case JOB_NAMES.orderConfirmation: {
        const { orderId } = jobPayloads[JOB_NAMES.orderConfirmation].parse(job.data);
        const order = await loadConfirmationOrder(db, orderId);
        if (!order) return { outcome: 'skipped', reason: 'order not found' };
        return sendOnce(EMAIL_KINDS.orderConfirmation, orderId, { to: order.customerEmail, ...orderConfirmationEmail(order) }, jobLog);
      }
      case JOB_NAMES.orderShipped: {
        const { orderId } = jobPayloads[JOB_NAMES.orderShipped].parse(job.data);
        const order = await loadShippedOrder(db, orderId);
        if (!order) return { outcome: 'skipped', reason: 'order not found' };
        // Set back (a mistaken click undone before the job ran): nothing has shipped.
        if (order.status !== 'shipped' && order.status !== 'delivered') return { outcome: 'skipped', reason: `order is ${order.status}` };
        return sendOnce(EMAIL_KINDS.orderShipped, orderId, { to: order.customerEmail, ...orderShippedEmail(order) }, jobLog);
      }
      case JOB_NAMES.subscriptionWelcome: {
        const { subscriptionId } = jobPayloads[JOB_NAMES.subscriptionWelcome].parse(job.data);
        const found = await loadSubscription(db, subscriptionId);
        if (!found) return { outcome: 'skipped', reason: 'subscription not found' };
        const content = subscriptionWelcomeEmail({ ...found.plan, nextBillingDate: found.sub.nextBillingDate });
        return sendOnce(EMAIL_KINDS.subscriptionWelcome, subscriptionId, { to: found.sub.customerEmail, ...content }, jobLog);
      }
      case JOB_NAMES.subscriptionPaused: {
        const { subscriptionId, period } = jobPayloads[JOB_NAMES.subscriptionPaused].parse(job.data);
        const found = await loadSubscription(db, subscriptionId);
        if (!found) return { outcome: 'skipped', reason: 'subscription not found' };
        // Why: what the period's payment row says (the gateway's answer, or why nothing was charged).
        const [payment] = await db
          .select({ message: tables.paymentTransactions.responseMessage })
          .from(tables.paymentTransactions)
          .where(and(eq(tables.paymentTransactions.subscriptionId, subscriptionId), eq(tables.paymentTransactions.billingPeriod, period)));
        const content = subscriptionPausedEmail({
          ...found.plan,
          dueDate: new Date(`${period}T00:00:00Z`),
          reason: payment?.message || 'The payment was not accepted.',
        });
        return sendOnce(EMAIL_KINDS.subscriptionPaused, `${subscriptionId}:${period}`, { to: found.sub.customerEmail, ...content }, jobLog);
      }
      case JOB_NAMES.renewalReminder: {
        const { subscriptionId, period } = jobPayloads[JOB_NAMES.renewalReminder].parse(job.data);
        const found = await loadSubscription(db, subscriptionId);
        if (!found) return { outcome: 'skipped', reason: 'subscription not found' };
        // Judged when sending, not when the sweep ran: a plan cancelled or paused since is not reminded,
        // nor one whose billing date has moved on or passed (a job that waited too long).
        if (found.sub.status !== 'active') return { outcome: 'skipped', reason: `subscription is ${found.sub.status}` };
        if (billingPeriodOf(found.sub.nextBillingDate) !== period) return { outcome: 'skipped', reason: 'the billing date has moved' };
        if (period < billingPeriodOf(new Date())) return { outcome: 'skipped', reason: 'the billing date has passed' };
        const content = renewalReminderEmail({ ...found.plan, nextBillingDate: found.sub.nextBillingDate, card: await savedCard(db, subscriptionId) });
        return sendOnce(EMAIL_KINDS.renewalReminder, `${subscriptionId}:${period}`, { to: found.sub.customerEmail, ...content }, jobLog);
      }
      default:
        throw new UnrecoverableError(`unknown email job ${job.name}`);
    }
  };
}
