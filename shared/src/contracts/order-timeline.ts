/**
 * POST /api/admin/orders/{id}/timeline: what happened to an order, oldest first, in staff words:
 * placed, paid (or declined), each NetSuite request, each email, each staff action, refunds and voids.
 * POST /api/admin/orders/{id}/emails {email}: send the confirmation or the shipping notice again.
 */
import { z } from 'zod';
import { STORE_CODE, STORE_CODE_MAX_LENGTH } from '../constants';
import { textField } from './fields';

export const TIMELINE_KINDS = ['placed', 'payment', 'refund', 'email', 'sync', 'staff'] as const;
export type TimelineKind = (typeof TIMELINE_KINDS)[number];

export const timelineEventSchema = z.object({
  at: z.string(),
  kind: z.enum(TIMELINE_KINDS),
  /** What happened, in words ("Paid", "Confirmation email sent", "NetSuite sales order: failed (429)"). */
  title: z.string(),
  detail: z.string().nullable(),
  /** The staff member who did it, if a person did. */
  actor: z.string().nullable(),
  /** Something went wrong (a declined payment, a failed request or email). */
  problem: z.boolean(),
  /** A damage claim resolved with a replacement: the $0 replacement order (linked beside the claim). */
  replacementOrderId: z.string().nullable(),
});
export type TimelineEvent = z.infer<typeof timelineEventSchema>;
export const orderTimelineSchema = z.object({ orderId: z.string(), events: z.array(timelineEventSchema) });
export type OrderTimeline = z.infer<typeof orderTimelineSchema>;

export const RESENDABLE_EMAILS = ['confirmation', 'shipping'] as const;
export type ResendableEmail = (typeof RESENDABLE_EMAILS)[number];
export const RESENDABLE_EMAIL_LABELS: Record<ResendableEmail, string> = { confirmation: 'Order confirmation', shipping: 'Shipping notice' };

export const RESEND_MESSAGES = {
  email: 'Choose the order confirmation or the shipping notice',
  notShipped: 'This order has not shipped yet, so there is no shipping notice to send.',
  queued: 'The email is on its way to the customer.',
  storeCode: 'Please enter a valid store code.',
} as const;

const storeCode = textField({ max: STORE_CODE_MAX_LENGTH, required: RESEND_MESSAGES.storeCode, tooLong: RESEND_MESSAGES.storeCode }).min(1, RESEND_MESSAGES.storeCode).default(STORE_CODE);

export const resendEmailRequestSchema = z.object({ storeCode, email: z.enum(RESENDABLE_EMAILS, { error: RESEND_MESSAGES.email }) });
export type ResendEmailRequest = z.input<typeof resendEmailRequestSchema>;
