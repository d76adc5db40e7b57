/**
 * Names shared by the producers (API, via the outbox) and the consumers (workers). Payloads carry ids,
 * never documents: a processor re-reads the database. Never a secret either: outbox rows are kept for
 * days and jobs (with their data) for a day or a week, readable to whoever reads the database or Redis.
 */
import { z } from 'zod';
import { shopperPlanChangeSchema, subscriptionItemSchema } from './subscriptions';

/** Outbox topics: what happened, written in the same transaction as the business row. */
export const OUTBOX_TOPICS = {
  orderPlaced: 'order.placed',
  /** Staff set an order's status to shipped (only on the change into shipped): the shipping notice. */
  orderShipped: 'order.shipped',
  newsletterSubscribed: 'newsletter.subscribed',
  subscriptionCreated: 'subscription.created',
  /** A renewal could not be paid and dunning is over: the plan is paused and the customer told. */
  subscriptionPaused: 'subscription.paused',
  /** The shopper gave a paused plan a new card: it is active again and its unpaid period is charged at once. */
  subscriptionResumed: 'subscription.resumed',
  /** Staff paused, resumed, skipped, rescheduled or cancelled a plan for the customer: the email saying what changed. */
  subscriptionChangedByStaff: 'subscription.changed-by-staff',
  /** The shopper skipped, moved, paused, resumed, changed the card or the items of a plan: the confirmation email (and the new card's expiry). */
  subscriptionChanged: 'subscription.changed',
  /** Staff sent the customer a link to give the plan a new card: the email with its single-use link (made as it is sent). */
  subscriptionCardLinkRequested: 'subscription.card-link-requested',
  /** Ship now (issue 21): the plan's delivery for `period` is charged and shipped at once (the renew job, with the sweep's job id). */
  subscriptionShipNowRequested: 'subscription.ship-now-requested',
  /** Consent on record (issue 22): a plan's price per delivery rises; the notice email, before the first charge at it. */
  subscriptionPriceNotice: 'subscription.price-notice',
  orderSyncRequested: 'order.sync-requested',
  /** Staff refunded or voided (part of) an order's payment, approved by the gateway: NetSuite gets the matching credit. */
  orderRefunded: 'order.refunded',
  /** Issue 23: staff refunded an order (to the card or to store credit) and chose to tell the customer: the refund email. */
  orderRefundNotice: 'order.refund-notice',
  exportRequested: 'export.requested',
  /** Staff asked for the subscriptions CSV (issue 21): the exports queue writes it. */
  subscriptionExportRequested: 'export.subscriptions-requested',
  /** Staff started a bulk swap (issue 21): the job that changes its plans one by one. */
  bulkSwapRequested: 'subscription.bulk-swap-requested',
  /** An owner invited someone to the back office: the invitation email with its single-use link. */
  staffInvited: 'staff.invited',
  /** Staff asked to reset a forgotten password: the email with its single-use link. */
  staffPasswordResetRequested: 'staff.password-reset-requested',
  /** Staff asked to send an order's confirmation again (`resendId` makes it a new email). */
  orderConfirmationResendRequested: 'order.confirmation-resend-requested',
  /** Staff asked to send an order's shipping notice again. */
  orderShippedResendRequested: 'order.shipped-resend-requested',
  /**
   * Staff corrected the shipping address of an unshipped order (issue 23): the corrected confirmation email
   * (`correctionId` makes it a new email) and the NetSuite sync that sends the sales order with it.
   */
  orderAddressCorrected: 'order.address-corrected',
  /** A shopper asked to reset a forgotten password: the email with its single-use link (issue 13). */
  shopperPasswordResetRequested: 'shopper.password-reset-requested',
  /** A shopper asked for a sign-in code: the email with the code, made as it is sent (issue 22). */
  shopperSignInCodeRequested: 'shopper.sign-in-code-requested',
  /** A guest looked an order up by number and email: the email with its single-use link to the order. */
  orderLinkRequested: 'order.link-requested',
  /** Staff started changing a customer's email (issue 23): the new address gets the single-use confirmation link. */
  customerEmailChangeRequested: 'customer.email-change-requested',
  /** The customer confirmed the change: the old address is told its account's email changed. */
  customerEmailChanged: 'customer.email-changed',
  /**
   * A store-credit grant, refund to credit or expiry was recorded (issue 23): NetSuite gets its records.
   * Written by the ledger's insert trigger (migration store_credit_netsuite), in the movement's transaction.
   */
  storeCreditRecorded: 'store-credit.recorded',
  /**
   * A staff or shopper account's failed sign-ins reached the account-wide figure of a 15-minute window:
   * the email telling its holder (once per window).
   */
  signInFailures: 'account.sign-in-failures',
} as const;
export type OutboxTopic = (typeof OUTBOX_TOPICS)[keyof typeof OUTBOX_TOPICS];

export const outboxPayloads = {
  [OUTBOX_TOPICS.orderPlaced]: z.object({ orderId: z.string().uuid() }),
  [OUTBOX_TOPICS.orderShipped]: z.object({ orderId: z.string().uuid() }),
  [OUTBOX_TOPICS.newsletterSubscribed]: z.object({ subscriberId: z.number().int(), email: z.string() }),
  [OUTBOX_TOPICS.subscriptionCreated]: z.object({ subscriptionId: z.string().uuid() }),
  /** `noticeId`: the subscription_price_notices row (old and new price, first charge day). */
  [OUTBOX_TOPICS.subscriptionPriceNotice]: z.object({ subscriptionId: z.string().uuid(), noticeId: z.number().int().positive() }),
  /** `period`: the billing period (yyyy-MM-dd) that went unpaid; its payment row says why. */
  [OUTBOX_TOPICS.subscriptionPaused]: z.object({ subscriptionId: z.string().uuid(), period: z.string() }),
  /** `period`: the billing period (yyyy-MM-dd) the plan was resumed on, the unpaid one its renewal charges. */
  [OUTBOX_TOPICS.subscriptionResumed]: z.object({ subscriptionId: z.string().uuid(), period: z.string().regex(/^\d{4}-\d{2}-\d{2}$/) }),
  /** `auditId`: the change's audit row (action, before and after): the email says what it says. */
  [OUTBOX_TOPICS.subscriptionChangedByStaff]: z.object({ subscriptionId: z.string().uuid(), auditId: z.number().int().positive() }),
  /**
   * The change as applied, with the plan's next billing date, amount and lines after it (written in the
   * change's transaction, so the email says exactly what the renewal will do, even after a later change);
   * `changeId` makes each change one email. `items` is optional: rows written before it have none.
   */
  [OUTBOX_TOPICS.subscriptionChanged]: z.object({
    subscriptionId: z.string().uuid(),
    changeId: z.string().uuid(),
    change: shopperPlanChangeSchema,
    status: z.string(),
    nextBillingDate: z.string(),
    amount: z.number().int(),
    items: z.array(subscriptionItemSchema).optional(),
  }),
  /** As for the other emailed links: the link's row only (plan_card_links), its token made as the email is sent. */
  [OUTBOX_TOPICS.subscriptionCardLinkRequested]: z.object({ tokenId: z.string().uuid() }),
  /** `attempt`: the plan's failed attempts when asked (0): with `period` it makes the renew job's id, the sweep's own. */
  [OUTBOX_TOPICS.subscriptionShipNowRequested]: z.object({ subscriptionId: z.string().uuid(), period: z.string().regex(/^\d{4}-\d{2}-\d{2}$/), attempt: z.number().int().min(0) }),
  [OUTBOX_TOPICS.orderSyncRequested]: z.object({ orderId: z.string().uuid() }),
  /** `paymentId`: the refund's or void's payment row. */
  [OUTBOX_TOPICS.orderRefunded]: z.object({ orderId: z.string().uuid(), paymentId: z.string().uuid() }),
  /** `paymentId`: the card refund's or void's payment row; `creditEntryId`: a refund to store credit's ledger row. */
  [OUTBOX_TOPICS.orderRefundNotice]: z.object({ orderId: z.string().uuid(), paymentId: z.string().uuid().optional(), creditEntryId: z.string().optional() }),
  [OUTBOX_TOPICS.exportRequested]: z.object({ exportId: z.string().uuid() }),
  [OUTBOX_TOPICS.subscriptionExportRequested]: z.object({ exportId: z.string().uuid() }),
  [OUTBOX_TOPICS.bulkSwapRequested]: z.object({ runId: z.string().uuid() }),
  /**
   * The link's row only: its single-use token is made by the mail worker as it sends the email
   * (`mintSingleUseToken`, @nh/server queries/single-use-tokens.ts), so no outbox row or job holds it.
   * Rows written before carried `token` too; it is ignored (and was removed by the migration outbox_without_tokens).
   */
  [OUTBOX_TOPICS.staffInvited]: z.object({ tokenId: z.string().uuid() }),
  [OUTBOX_TOPICS.staffPasswordResetRequested]: z.object({ tokenId: z.string().uuid() }),
  [OUTBOX_TOPICS.orderConfirmationResendRequested]: z.object({ orderId: z.string().uuid(), resendId: z.string().uuid() }),
  [OUTBOX_TOPICS.orderShippedResendRequested]: z.object({ orderId: z.string().uuid(), resendId: z.string().uuid() }),
  [OUTBOX_TOPICS.orderAddressCorrected]: z.object({ orderId: z.string().uuid(), correctionId: z.string().uuid() }),
  /** As for staff: the link's row only, its token made as the email is sent. */
  [OUTBOX_TOPICS.shopperPasswordResetRequested]: z.object({ tokenId: z.string().uuid() }),
  /** The code's row only; the code is made as the email is sent. */
  [OUTBOX_TOPICS.shopperSignInCodeRequested]: z.object({ codeId: z.string().uuid() }),
  [OUTBOX_TOPICS.orderLinkRequested]: z.object({ tokenId: z.string().uuid() }),
  /** The link's row only (shopper_tokens, purpose email_change): its token is made as the email is sent. */
  [OUTBOX_TOPICS.customerEmailChangeRequested]: z.object({ tokenId: z.string().uuid() }),
  /** The spent link's row: its `previous_email` is where the notice goes, `email` the new address. */
  [OUTBOX_TOPICS.customerEmailChanged]: z.object({ tokenId: z.string().uuid() }),
  /** `entryId`: the ledger row (store_credit_entries.id, as text: a bigint). */
  [OUTBOX_TOPICS.storeCreditRecorded]: z.object({ entryId: z.string().regex(/^\d+$/) }),
  /** `failures`: the window's count when the email was called for; `alertId` makes each window one email. */
  [OUTBOX_TOPICS.signInFailures]: z.object({
    account: z.enum(['staff', 'shopper']),
    accountId: z.string().uuid(),
    alertId: z.string().uuid(),
    failures: z.number().int().positive(),
  }),
} satisfies Record<OutboxTopic, z.ZodType>;

export type OutboxPayload<T extends OutboxTopic> = z.infer<(typeof outboxPayloads)[T]>;
