/**
 * The rules of a plan's period charge (the charge row of the period it is on, changes.ts LockedPlan),
 * one place for the API's plan rules (api subscriptions/plan-rules.ts re-exports them) and the bulk
 * swap job (workers bulk-swap), which cannot import the API.
 */
import { paymentAnswerUnsettled, paymentInFlight } from '../payment-in-flight';
import type { LockedPlan } from './changes';

/**
 * The period's charge is under way: in flight (pending, the payment service not answered yet: the one rule
 * of @nh/server paymentInFlight) or paid but not yet booked (approved, the renewal finishing). Nothing on
 * the plan may change meanwhile; it lasts seconds.
 */
export const chargeUnderWay = (charge: LockedPlan['periodCharge']) =>
  charge !== null && charge.status !== 'declined' && charge.status !== 'error' && (charge.status !== 'pending' || paymentInFlight(charge));

/**
 * The period's charge is being checked: pending with the payment service's answer held for review or
 * lost (unknown). It stays so until staff settle it with the payment service, so it never blocks a pause
 * or a cancel (they go through, and the confirmation says that charge stands); the period itself may not
 * be skipped, moved or passed over, nor its lines or card changed (its order is written, and a moved
 * period would be charged a second time).
 */
export const chargeBeingChecked = (charge: LockedPlan['periodCharge']) => charge !== null && paymentAnswerUnsettled(charge);

/** The period's charge is under way or being checked: the period must not be skipped, moved or passed over. */
export const periodBusy = (charge: LockedPlan['periodCharge']) => chargeUnderWay(charge) || chargeBeingChecked(charge);
