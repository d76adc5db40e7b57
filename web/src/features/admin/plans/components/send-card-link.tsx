/** Email the customer a single-use link to give the plan a new card: staff never see or type card numbers. */
import { ADMIN_SUBSCRIPTION_MESSAGES as MSG, sendCardLinkSchema, type AdminSubscriptionDetail } from '@nh/shared/contracts/admin-subscriptions';
import { PLAN_CARD_LINK_TTL_MS } from '@nh/shared/contracts/plan-card-link';
import { firstIssue, OnBehalfDialog, useOnBehalfForm } from './on-behalf-dialog';

const DAYS = Math.round(PLAN_CARD_LINK_TTL_MS / 86_400_000);

export function SendCardLink({ plan, onClose }: { plan: AdminSubscriptionDetail; onClose: () => void }) {
  const form = useOnBehalfForm(plan.id, MSG.cardLinkSent, 'The link could not be sent', onClose);
  const submit = () => {
    const checked = sendCardLinkSchema.safeParse({ reason: form.reason });
    if (!checked.success) return form.setProblem(firstIssue(checked.error, MSG.cardLinkReason));
    form.send({ action: 'card-link', body: checked.data });
  };
  const paused = plan.status === 'paused' && plan.pauseCause === 'payment-failed';
  return (
    <OnBehalfDialog
      title="Send a card update link"
      description={`${plan.customerName} (${plan.customerEmail}) is emailed a link that works once, for ${DAYS} days, to give this plan a new card without signing in; any link sent before stops working.${paused ? ' The plan is paused because a payment failed: saving a card restarts it and charges the delivery that was due.' : ''} The reason stays in the audit trail.`}
      submitLabel="Send link"
      {...form.dialog}
      onSubmit={submit}
    />
  );
}
