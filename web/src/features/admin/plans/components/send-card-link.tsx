/** Email the customer a single-use link to give the plan a new card: staff never see or type card numbers. */
import { ADMIN_SUBSCRIPTION_MESSAGES as MSG, sendCardLinkSchema, type AdminSubscriptionDetail } from '@nh/shared/contracts/admin-subscriptions';
import { PLAN_CARD_LINK_TTL_MS } from '@nh/shared/contracts/plan-card-link';
import { useState } from 'react';
import { serverMessageOf } from '@/lib/query-client';
import { useChangeForCustomer } from '../on-behalf-api';
import { firstIssue, OnBehalfDialog } from './on-behalf-dialog';

const DAYS = Math.round(PLAN_CARD_LINK_TTL_MS / 86_400_000);

export function SendCardLink({ plan, onClose }: { plan: AdminSubscriptionDetail; onClose: () => void }) {
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const change = useChangeForCustomer(plan.id, MSG.cardLinkSent);
  const submit = () => {
    const checked = sendCardLinkSchema.safeParse({ reason });
    if (!checked.success) return setProblem(firstIssue(checked.error, MSG.cardLinkReason));
    setProblem(null);
    change.mutate({ action: 'card-link', body: checked.data }, { onSuccess: onClose, onError: (error) => setProblem(serverMessageOf(error) ?? `The link could not be sent (${error.message}).`) });
  };
  const paused = plan.status === 'paused' && plan.pauseCause === 'payment-failed';
  return (
    <OnBehalfDialog
      title="Send a card update link"
      description={`${plan.customerName} (${plan.customerEmail}) is emailed a link that works once, for ${DAYS} days, to give this plan a new card without signing in; any link sent before stops working.${paused ? ' The plan is paused because a payment failed: saving a card restarts it and charges the delivery that was due.' : ''} The reason stays in the audit trail.`}
      submitLabel="Send link"
      pending={change.isPending}
      problem={problem}
      reason={reason}
      onReason={setReason}
      onSubmit={submit}
      onClose={onClose}
    />
  );
}
