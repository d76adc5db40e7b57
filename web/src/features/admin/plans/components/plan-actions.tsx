/**
 * Pause, resume, skip next, change next date, change the delivery frequency and cancel on the customer's
 * behalf (subscriptions.act).
 * Each opens a confirmation saying what will happen; the server's refusal is shown in the dialog.
 */
import {
  ADMIN_SUBSCRIPTION_ACTION_LABELS,
  ADMIN_SUBSCRIPTION_ACTIONS,
  ADMIN_SUBSCRIPTION_MESSAGES,
  cancelSubscriptionByStaffSchema,
  pauseSubscriptionByStaffSchema,
  changeFrequencyByStaffSchema,
  missedWhilePaused,
  rescheduleSubscriptionSchema,
  type AdminSubscriptionAction,
  type AdminSubscriptionDetail,
} from '@nh/shared/contracts/admin-subscriptions';
import { cadenceWords, INTERVAL_MONTHS, nextBillingDate } from '@nh/shared/contracts/subscriptions';
import type { CancelReason } from '@nh/shared/contracts/cancellation';
import { AlertCircle, Loader2 } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { CadenceChoice } from '@/components/plan-cadence/cadence-choice';
import { serverMessageOf } from '@/lib/query-client';
import { actOnPlan, type PlanActionInput } from '../api';
import { formatDay } from '../format';
import { usePlanChange } from '../plan-change';
import { CustomerReasonChoice } from './customer-reason-choice';

const DONE: Record<AdminSubscriptionAction, string> = {
  pause: ADMIN_SUBSCRIPTION_MESSAGES.paused,
  resume: ADMIN_SUBSCRIPTION_MESSAGES.resumed,
  skip: ADMIN_SUBSCRIPTION_MESSAGES.skipped,
  reschedule: ADMIN_SUBSCRIPTION_MESSAGES.rescheduled,
  frequency: ADMIN_SUBSCRIPTION_MESSAGES.frequencyChanged,
  cancel: ADMIN_SUBSCRIPTION_MESSAGES.cancelled,
};

const TITLES: Record<AdminSubscriptionAction, string> = {
  pause: 'Pause this plan?',
  resume: 'Resume this plan?',
  skip: 'Skip the next delivery?',
  reschedule: 'Change the next delivery date',
  frequency: 'Change the delivery frequency',
  cancel: 'Cancel this plan?',
};

/** What will happen, in the plan's own dates. */
function consequence(action: AdminSubscriptionAction, plan: AdminSubscriptionDetail): string {
  const next = new Date(plan.nextBillingDate);
  const emailed = `${plan.customerName} is emailed about the change.`;
  switch (action) {
    case 'pause':
      return `No delivery is charged or sent while the plan is paused (the next one was due ${formatDay(plan.nextBillingDate)}). ${emailed}`;
    case 'resume': {
      const { next: resumed, missed } = missedWhilePaused(next, plan.interval, plan.intervalCount, new Date());
      const skipped =
        missed.length > 0
          ? ` ${missed.length} billing ${missed.length === 1 ? 'date' : 'dates'} missed while paused ${missed.length === 1 ? 'is' : 'are'} skipped, not charged.`
          : '';
      return `Deliveries start again on the saved card: the next one is charged on ${formatDay(resumed.toISOString())}.${skipped} ${emailed}`;
    }
    case 'skip':
      return `The delivery of ${formatDay(plan.nextBillingDate)} is not charged or sent. The next one is on ${formatDay(nextBillingDate(next, plan.interval, plan.intervalCount).toISOString())}. ${emailed}`;
    case 'reschedule':
      return plan.rescheduleWindow
        ? `The next delivery is now due ${formatDay(plan.nextBillingDate)}. Choose a day from ${formatDay(plan.rescheduleWindow.earliest)} to ${formatDay(plan.rescheduleWindow.latest)}; later deliveries follow from it. ${emailed}`
        : ADMIN_SUBSCRIPTION_MESSAGES.noDateAllowed;
    case 'frequency':
      return `The plan is delivered ${cadenceWords(plan.interval, plan.intervalCount).toLowerCase()}. With a new frequency the next delivery is due that long after the last one (from tomorrow at the earliest). ${emailed} The reason stays in the audit trail; it is not sent to the customer.`;
    case 'cancel':
      return `No more deliveries are charged or sent, and this cannot be undone (the customer would have to subscribe again). ${emailed} The reason stays in the audit trail; it is not sent to the customer.`;
  }
}

function ActionDialog({ plan, action, onClose }: { plan: AdminSubscriptionDetail; action: AdminSubscriptionAction; onClose: () => void }) {
  const ids = { date: useId(), reason: useId(), problem: useId() };
  const [date, setDate] = useState(plan.rescheduleWindow?.earliest ?? '');
  const [reason, setReason] = useState('');
  const [customerReason, setCustomerReason] = useState<CancelReason | ''>('');
  const [months, setMonths] = useState(INTERVAL_MONTHS[plan.interval] * plan.intervalCount);
  const [problem, setProblem] = useState<string | null>(null);
  const act = usePlanChange(plan.id, (input: PlanActionInput) => actOnPlan(plan.id, input), DONE[action]);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (act.isPending) return;
    let input: PlanActionInput;
    if (action === 'reschedule') {
      const checked = rescheduleSubscriptionSchema.safeParse({ nextBillingDate: date });
      if (!checked.success) return setProblem(checked.error.issues[0]?.message ?? ADMIN_SUBSCRIPTION_MESSAGES.nextBillingDate);
      input = { action, nextBillingDate: checked.data.nextBillingDate };
    } else if (action === 'frequency') {
      const checked = changeFrequencyByStaffSchema.safeParse({ intervalCount: months, reason });
      if (!checked.success) return setProblem(checked.error.issues[0]?.message ?? ADMIN_SUBSCRIPTION_MESSAGES.frequencyReason);
      input = { action, ...checked.data };
    } else if (action === 'pause') {
      const checked = pauseSubscriptionByStaffSchema.safeParse({ reason });
      if (!checked.success) return setProblem(checked.error.issues[0]?.message ?? ADMIN_SUBSCRIPTION_MESSAGES.pauseReason);
      input = { action, reason: checked.data.reason };
    } else if (action === 'cancel') {
      const checked = cancelSubscriptionByStaffSchema.safeParse({ reason, customerReason: customerReason || undefined });
      if (!checked.success) return setProblem(checked.error.issues[0]?.message ?? ADMIN_SUBSCRIPTION_MESSAGES.cancelReason);
      input = { action, reason: checked.data.reason, ...(checked.data.customerReason ? { customerReason: checked.data.customerReason } : {}) };
    } else {
      input = { action };
    }
    setProblem(null);
    act.mutate(input, { onSuccess: onClose, onError: (error) => setProblem(serverMessageOf(error) ?? `The plan could not be changed (${error.message}).`) });
  }

  return (
    <Dialog open onOpenChange={(open) => !open && !act.isPending && onClose()}>
      <DialogContent>
        <form onSubmit={submit} noValidate className="grid grid-cols-1 gap-4">
          <DialogHeader>
            <DialogTitle>{TITLES[action]}</DialogTitle>
            <DialogDescription>{consequence(action, plan)}</DialogDescription>
          </DialogHeader>
          {(action === 'pause' || action === 'cancel') && plan.chargeBeingChecked && (
            <p className="text-sm text-amber-900" data-testid="dialog-charge-stands">
              {ADMIN_SUBSCRIPTION_MESSAGES.chargeStands}
            </p>
          )}
          {action === 'reschedule' && plan.rescheduleWindow && (
            <div className="space-y-1.5">
              <Label htmlFor={ids.date}>New date of the next delivery</Label>
              <Input
                id={ids.date}
                type="date"
                required
                min={plan.rescheduleWindow.earliest}
                max={plan.rescheduleWindow.latest}
                value={date}
                onChange={(e) => setDate(e.target.value)}
                aria-describedby={problem ? ids.problem : undefined}
              />
            </div>
          )}
          {action === 'frequency' && <CadenceChoice label="Deliver" value={months} onChange={setMonths} />}
          {action === 'cancel' && <CustomerReasonChoice value={customerReason} onChange={setCustomerReason} />}
          {(action === 'cancel' || action === 'frequency' || action === 'pause') && (
            <div className="space-y-1.5">
              <Label htmlFor={ids.reason}>{action === 'pause' ? 'Reason (the customer is told it)' : 'Reason (for the audit trail)'}</Label>
              <Textarea
                id={ids.reason}
                rows={3}
                maxLength={500}
                required
                value={reason}
                onChange={(e) => setReason(e.target.value)}
                aria-describedby={problem ? ids.problem : undefined}
              />
            </div>
          )}
          {problem && (
            <Alert variant="destructive" role="alert" id={ids.problem} data-testid="plan-action-problem">
              <AlertCircle aria-hidden="true" />
              <AlertDescription>{problem}</AlertDescription>
            </Alert>
          )}
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose} disabled={act.isPending}>
              Go back
            </Button>
            <Button
              type="submit"
              variant={action === 'cancel' ? 'destructive' : 'default'}
              disabled={act.isPending || (action === 'reschedule' && !plan.rescheduleWindow)}
            >
              {act.isPending && <Loader2 className="animate-spin" aria-hidden="true" />}
              {ADMIN_SUBSCRIPTION_ACTION_LABELS[action]}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

/** The actions the plan allows now (the server's `actions`), each behind its confirmation. */
export function PlanActions({ plan }: { plan: AdminSubscriptionDetail }) {
  const [open, setOpen] = useState<AdminSubscriptionAction | null>(null);
  const available = ADMIN_SUBSCRIPTION_ACTIONS.filter((action) => plan.actions[action]);
  const needsCustomer = plan.status === 'paused' && !plan.actions.resume;
  // An active plan can always be paused, except while its period's charge is under way (the server refuses then).
  const chargeUnderWay = plan.status === 'active' && !plan.actions.pause;

  return (
    <div className="grid grid-cols-1 gap-3">
      {available.length > 0 ? (
        <div className="flex flex-wrap gap-2">
          {available.map((action) => (
            <Button key={action} variant={action === 'cancel' ? 'destructive' : 'outline'} onClick={() => setOpen(action)}>
              {ADMIN_SUBSCRIPTION_ACTION_LABELS[action]}
            </Button>
          ))}
        </div>
      ) : (
        <p className="text-sm text-stone-600">Nothing can be changed on this plan now.</p>
      )}
      {chargeUnderWay && (
        <p className="text-sm text-amber-900" data-testid="charge-under-way">
          {ADMIN_SUBSCRIPTION_MESSAGES.chargeInProgress}
        </p>
      )}
      {plan.chargeBeingChecked && (
        <p className="text-sm text-amber-900" data-testid="charge-stands">
          {ADMIN_SUBSCRIPTION_MESSAGES.chargeStands}
        </p>
      )}
      {needsCustomer && (
        <p className="text-sm text-amber-900" data-testid="resume-needs-customer">
          {plan.hasStoredCard ? ADMIN_SUBSCRIPTION_MESSAGES.needsNewCard : ADMIN_SUBSCRIPTION_MESSAGES.noStoredCard}
        </p>
      )}
      {open && <ActionDialog key={open} plan={plan} action={open} onClose={() => setOpen(null)} />}
    </div>
  );
}
