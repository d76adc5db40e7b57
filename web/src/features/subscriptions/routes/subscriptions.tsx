import type { SubscriptionView } from '@nh/shared/contracts/subscriptions';
import { useId, useRef, useState, type ReactNode } from 'react';
import { useAuth } from '@/lib/auth';
import { usePageMeta } from '@/lib/use-page-meta';
import { useCancelSubscription, useSubscriptions } from '../api';
import { useTakeCancelOffer } from '../cancel-offer-api';
import { CancelSubscriptionDialog } from '../components/cancel-subscription-dialog';
import { SubscriptionBenefits } from '../components/subscription-benefits';
import { ResumeSubscriptionDialog } from '../components/resume-subscription-dialog';
import { PlanChangeDialog, type PlanDialogKind } from '../components/plan-change-dialogs';
import { cancelButtonId, planActionId, resumeButtonId, SubscriptionCard, subscriptionCardId } from '../components/subscription-card';
import { LoginRequired, NoSubscriptions, SubscriptionsLoadError, SubscriptionsLoading } from '../components/subscription-states';
import { groupSubscriptions } from '../subscription-model';

function PageShell({ children, heading = true }: { children: ReactNode; heading?: boolean }) {
  return (
    <section className="mx-auto max-w-6xl px-4 pb-16 pt-28 sm:px-6 lg:px-8">
      {heading && <h1 className="mb-6 text-3xl font-semibold text-brand-900">My Subscriptions</h1>}
      {children}
    </section>
  );
}

function SubscriptionGroup({ title, children }: { title: string; children: ReactNode }) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="space-y-4">
      <h2 id={headingId} className="text-xl font-semibold text-brand-900">
        {title}
      </h2>
      {children}
    </section>
  );
}

function SubscriptionLists({ subscriptions }: { subscriptions: SubscriptionView[] }) {
  const { active, past } = groupSubscriptions(subscriptions);
  const cancel = useCancelSubscription();
  const takeOffer = useTakeCancelOffer();
  const [toCancel, setToCancel] = useState<SubscriptionView | null>(null);
  const [toResume, setToResume] = useState<SubscriptionView | null>(null);
  const [toChange, setToChange] = useState<{ kind: PlanDialogKind; subscription: SubscriptionView } | null>(null);
  const lastKind = useRef<PlanDialogKind>('skip');
  // The plan a dialog was about, kept after it closes so focus can go back to it.
  const lastAsked = useRef<string | null>(null);
  const benefitsId = useId();

  const askToCancel = (subscription: SubscriptionView) => {
    lastAsked.current = subscription.id;
    setToCancel(subscription);
  };
  const askToResume = (subscription: SubscriptionView) => {
    lastAsked.current = subscription.id;
    setToResume(subscription);
  };
  const askToChange = (kind: PlanDialogKind, subscription: SubscriptionView) => {
    lastAsked.current = subscription.id;
    lastKind.current = kind;
    setToChange({ kind, subscription });
  };
  // Back to the button that opened the dialog if still there (failure or dismissal), else to the card that moved.
  const returnFocus = (buttonId: (id: string) => string) => () => {
    const id = lastAsked.current;
    if (!id) return;
    (document.getElementById(buttonId(id)) ?? document.getElementById(subscriptionCardId(id)))?.focus();
  };

  return (
    <div className="grid gap-8 lg:grid-cols-[1fr_320px]">
      <div className="space-y-10">
        <SubscriptionGroup title="Active Subscriptions">
          {active.length === 0 ? (
            <p className="text-stone-600">You have no active subscriptions.</p>
          ) : (
            active.map((subscription) => <SubscriptionCard key={subscription.id} subscription={subscription} onCancel={askToCancel} onResume={askToResume} onChange={askToChange} />)
          )}
        </SubscriptionGroup>
        {past.length > 0 && (
          <SubscriptionGroup title="Past Subscriptions">
            {past.map((subscription) => (
              <SubscriptionCard key={subscription.id} subscription={subscription} />
            ))}
          </SubscriptionGroup>
        )}
      </div>
      <aside aria-labelledby={benefitsId} className="lg:sticky lg:top-28 lg:self-start">
        <SubscriptionBenefits titleId={benefitsId} />
      </aside>

      <CancelSubscriptionDialog
        subscription={toCancel}
        pending={cancel.isPending}
        onConfirm={(subscription, input) => cancel.mutate({ id: subscription.id, input }, { onSettled: () => setToCancel(null) })}
        offerPending={takeOffer.isPending}
        onAcceptOffer={(subscription, offer) =>
          takeOffer.mutate({ id: subscription.id, offer }, {
            onSuccess: () => {
              setToCancel(null);
              if (offer.kind === 'change-items') askToChange('items', subscription);
            },
          })
        }
        onDismiss={() => setToCancel(null)}
        onClosed={returnFocus(cancelButtonId)}
      />
      <ResumeSubscriptionDialog
        subscription={toResume}
        onDismiss={() => setToResume(null)}
        onResumed={() => setToResume(null)}
        onClosed={returnFocus(resumeButtonId)}
      />
      <PlanChangeDialog open={toChange} onDismiss={() => setToChange(null)} onClosed={() => returnFocus(planActionId(lastKind.current))()} />
    </div>
  );
}

/** /subscriptions: the signed-in shopper's Subscribe & Save plans (spec §2 "My Subscriptions"). */
export default function SubscriptionsPage() {
  usePageMeta({ title: 'My Subscriptions' });
  const auth = useAuth();
  const subscriptions = useSubscriptions(auth.isAuthenticated);

  if (auth.isLoading || (auth.isAuthenticated && subscriptions.isPending)) {
    return (
      <PageShell>
        <SubscriptionsLoading />
      </PageShell>
    );
  }
  // Signed out, or the session ended since (the list call answered 401).
  if (!auth.isAuthenticated || subscriptions.data === null) {
    return (
      <PageShell heading={false}>
        <LoginRequired />
      </PageShell>
    );
  }
  // A failed refresh keeps the list already shown; only a first load that failed shows the alert.
  if (!subscriptions.data) {
    return (
      <PageShell>
        <SubscriptionsLoadError />
      </PageShell>
    );
  }
  return (
    <PageShell>{subscriptions.data.length === 0 ? <NoSubscriptions /> : <SubscriptionLists subscriptions={subscriptions.data} />}</PageShell>
  );
}
