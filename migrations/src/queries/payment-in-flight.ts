/**
 * The one rule of a payment row still in flight (a charge, a renewal's charge, a refund or a void): it is
 * `pending` and has no words from the payment service yet. Every writer records the service's answer on
 * the row (`response_message`) when it gets one, so a pending row *with* words is not in flight: its
 * answer was held for review or lost (unknown), and it waits for someone to check it with the payment
 * service. Plans (a charge under way refuses changes only while in flight), the shipping refusal (a
 * refund being processed) and a refund's repeat (which waits only while in flight) read it here.
 */
export interface PaymentAnswerFields {
  status: string;
  responseMessage: string | null;
}

/** Pending, without the payment service's answer yet: the call is (or may still be) under way. */
export const paymentInFlight = (row: PaymentAnswerFields): boolean => row.status === 'pending' && row.responseMessage === null;

/** Pending, with what the payment service said (held for review, or the answer lost): to be checked with the service. */
export const paymentAnswerUnsettled = (row: PaymentAnswerFields): boolean => row.status === 'pending' && row.responseMessage !== null;

/** paymentInFlight as SQL over a payment_transactions alias (`alias.status`, `alias.response_message`). */
export const paymentInFlightSql = (alias: string): string => `(${alias}.status = 'pending' and ${alias}.response_message is null)`;
