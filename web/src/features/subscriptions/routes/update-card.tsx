/**
 * /subscriptions/update-card/:token, the page of the card link staff email a customer (issue 21): no
 * sign-in, the token in the path is the credential. It shows the plan's summary (its products, next
 * delivery, card as brand and last four) and the card form of My Subscriptions (tokenised in the browser,
 * only the opaque data sent); a link unknown, used or expired, or a plan that has ended, is a plain message
 * with a way to sign in. Rendered in the browser only (the server sends the shop's head, not indexed).
 */
import { formatPrice } from '@nh/shared';
import { cardEnding } from '@nh/shared/cards';
import { PLAN_CARD_LINK_MESSAGES as LINK, planCardLinkResultSchema, planCardLinkViewSchema, type PlanCardLinkResult, type PlanCardLinkView } from '@nh/shared/contracts/plan-card-link';
import { cadenceWords } from '@nh/shared/contracts/subscriptions';
import { useMutation, useQuery } from '@tanstack/react-query';
import { CheckCircle2, CreditCard, Link2Off } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router-dom';
import type { OpaqueCardData } from '@/components/card-entry/accept';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/components/ui/use-toast';
import { formatLongDate } from '@/lib/format-date';
import { ApiError, apiRequest, serverMessageOf } from '@/lib/query-client';
import { usePageMeta } from '@/lib/use-page-meta';
import { NewCardForm } from '../components/new-card-form';

const LOGIN_URL = '/api/login';
/** The page has no dialog to hold open while the card is sent. */
const IGNORE = () => {};
const linkUrl = (token: string) => `/api/subscriptions/update-card/${encodeURIComponent(token)}`;

async function fetchLink(token: string): Promise<PlanCardLinkView> {
  const res = await apiRequest('GET', linkUrl(token));
  return planCardLinkViewSchema.parse(await res.json());
}

async function saveCard(token: string, card: OpaqueCardData): Promise<PlanCardLinkResult> {
  const res = await apiRequest('POST', linkUrl(token), card);
  return planCardLinkResultSchema.parse(await res.json());
}

export default function UpdateCardRoute() {
  const { token = '' } = useParams();
  usePageMeta({ title: 'Update your card' });
  // The key never holds the token (the query cache is inspectable); one page, one link.
  const link = useQuery({ queryKey: ['plan-card-link'], queryFn: () => fetchLink(token), retry: false, gcTime: 0, staleTime: Infinity });
  const save = useMutation({
    mutationFn: (card: OpaqueCardData) => saveCard(token, card),
    onError: (error) => !isLinkGone(error) && toast({ title: 'Card not saved', description: serverMessageOf(error) ?? 'Please try again.', variant: 'destructive' }),
  });

  let content: ReactNode;
  if (link.isPending) {
    content = (
      <div aria-busy="true" aria-label="Loading" className="space-y-3">
        <Skeleton className="h-8 w-3/4" />
        <Skeleton className="h-5 w-full" />
      </div>
    );
  } else if (link.isError) {
    content = <Unusable message={serverMessageOf(link.error) ?? 'We could not load this page. Please try again in a moment.'} />;
  } else if (save.isSuccess) {
    content = (
      <Panel icon={<CheckCircle2 aria-hidden="true" />} title={save.data.resumed ? LINK.savedAndResumed : LINK.saved}>
        <p data-testid="card-saved">
          Your plan now uses your {cardEnding(save.data.cardType, save.data.cardLastFour, { joiner: 'ending in', brandless: 'card' }) ?? 'new card'}.
          {save.data.resumed ? ' Your subscription is active again, and the delivery that was due is charged to this card now.' : ' You have not been charged for this change.'} We have emailed you to confirm.
        </p>
        <SignIn />
      </Panel>
    );
  } else if (save.isError && isLinkGone(save.error)) {
    content = <Unusable message={serverMessageOf(save.error)!} />;
  } else {
    content = <CardForm plan={link.data} onSend={(card) => save.mutateAsync(card).then(() => true, () => false)} />;
  }

  return (
    <div className="bg-cream px-4 pb-16 pt-28 sm:px-6 md:pt-36">
      <div aria-live="polite" className="mx-auto max-w-xl rounded-3xl bg-white px-5 py-8 shadow-sm sm:px-10 sm:py-10">
        {content}
      </div>
      <p className="mt-6 text-center">
        <Link to="/" className="font-medium text-brand-700 underline">
          Back to the shop
        </Link>
      </p>
    </div>
  );
}

/** The link itself is no longer usable (the answers the page shows as a plain message, not a toast over the form). */
const GONE = new Set(['PLAN_CARD_LINK_INVALID', 'PLAN_CARD_LINK_USED', 'PLAN_CARD_LINK_EXPIRED', 'SUBSCRIPTION_ENDED']);
function isLinkGone(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  try {
    return GONE.has((JSON.parse(error.body) as { code?: string }).code ?? '');
  } catch {
    return false;
  }
}

function CardForm({ plan, onSend }: { plan: PlanCardLinkView; onSend: (card: OpaqueCardData) => Promise<boolean> }) {
  const card = cardEnding(plan.cardType, plan.cardLastFour, { joiner: 'ending in', brandless: 'Card' });
  return (
    <Panel icon={<CreditCard aria-hidden="true" />} title="Update the card for your subscription">
      <dl className="grid grid-cols-1 gap-3 text-sm sm:grid-cols-2" data-testid="plan-summary">
        <Fact label="Items">{plan.productNames.join(', ')}</Fact>
        <Fact label="Each delivery">
          {formatPrice(plan.amount)} · {cadenceWords(plan.interval, plan.intervalCount).toLowerCase()}
        </Fact>
        <Fact label={plan.status === 'paused' ? 'Delivery due' : 'Next delivery'}>{formatLongDate(plan.nextBillingDate)}</Fact>
        <Fact label="Current card">{card ?? 'No card on file'}</Fact>
      </dl>
      <p className="text-sm">
        {plan.resumesOnSave
          ? 'Your subscription is paused because a payment failed. Saving a card restarts it, and the delivery that was due is charged to the new card right away.'
          : plan.status === 'paused'
            ? 'Your subscription is paused; the new card is used when it starts again. It is not charged now.'
            : 'The new card is saved with our payment service, not charged now; your next delivery is charged to it.'}{' '}
        We never see or keep your card number.
      </p>
      <NewCardForm submitLabel="Save Card" cancelLabel="Not Now" onSendingChange={IGNORE} onCancel={() => window.location.assign('/')} send={onSend} />
    </Panel>
  );
}

function Unusable({ message }: { message: string }) {
  return (
    <Panel icon={<Link2Off aria-hidden="true" />} title="This link cannot be used">
      <p data-testid="link-unusable">{message}</p>
      <p>{LINK.contact}</p>
      <SignIn />
    </Panel>
  );
}

function SignIn() {
  return (
    <div className="flex flex-wrap gap-3">
      {/* A full page load: sign-in is the API's own page, not a route of this app. */}
      <Button asChild>
        <a href={LOGIN_URL}>Sign In</a>
      </Button>
      <Button asChild variant="outline">
        <Link to="/subscriptions">My Subscriptions</Link>
      </Button>
    </div>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-medium uppercase tracking-wide text-stone-500">{label}</dt>
      <dd className="mt-0.5 break-words font-medium text-stone-900">{children}</dd>
    </div>
  );
}

function Panel({ icon, title, children }: { icon: ReactNode; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby="update-card-heading" className="min-w-0 space-y-4 text-stone-700">
      <span className="inline-flex size-12 items-center justify-center rounded-full bg-brand-100 text-brand-700 [&>svg]:size-6">{icon}</span>
      <h1 id="update-card-heading" className="text-2xl font-bold tracking-tight text-brand-900">
        {title}
      </h1>
      {children}
    </section>
  );
}
