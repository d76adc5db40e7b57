/** The page's states other than the lists: loading, signed out, load failure, no subscriptions (spec §2). */
import { SUBSCRIPTION_DISCOUNT_PERCENT, SUBSCRIPTION_MESSAGES } from '@nh/shared/contracts/subscriptions';
import { AlertCircle, Lock, Package } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';

const LOGIN_URL = '/api/login';

function Panel({ icon, children }: { icon: ReactNode; children: ReactNode }) {
  return (
    <div className="mx-auto flex max-w-lg flex-col items-center gap-4 rounded-3xl bg-white px-6 py-12 text-center shadow-sm sm:px-12">
      <span className="inline-flex size-14 items-center justify-center rounded-full bg-brand-100 text-brand-700">{icon}</span>
      {children}
    </div>
  );
}

export function SubscriptionsLoading() {
  return (
    <div aria-busy="true">
      <p role="status" className="sr-only">
        Loading your subscriptions...
      </p>
      <div className="space-y-4" data-testid="subscriptions-loading">
        {[0, 1].map((key) => (
          <Skeleton key={key} className="h-48 w-full rounded-2xl" />
        ))}
      </div>
    </div>
  );
}

/** Signed out: the page's own heading is this one. */
export function LoginRequired() {
  return (
    <Panel icon={<Lock className="size-7" aria-hidden="true" />}>
      <h1 className="text-2xl font-semibold text-brand-900">{SUBSCRIPTION_MESSAGES.loginRequiredTitle}</h1>
      <p className="text-stone-600">{SUBSCRIPTION_MESSAGES.listLoginRequired}</p>
      {/* A full page load: sign-in is the API's own page, not a route of this app (as in the header). */}
      <Button asChild>
        <a href={LOGIN_URL}>Log In</a>
      </Button>
    </Panel>
  );
}

export function SubscriptionsLoadError() {
  return (
    <Alert variant="destructive">
      <AlertCircle aria-hidden="true" />
      <AlertDescription>{SUBSCRIPTION_MESSAGES.loadFailed}</AlertDescription>
    </Alert>
  );
}

export function NoSubscriptions() {
  return (
    <Panel icon={<Package className="size-7" aria-hidden="true" />}>
      <h2 className="text-xl font-semibold text-brand-900">{SUBSCRIPTION_MESSAGES.empty}</h2>
      <p className="text-stone-600">
        Tick Subscribe &amp; Save at checkout to get your favourites delivered every month with {SUBSCRIPTION_DISCOUNT_PERCENT}% off and free shipping.
      </p>
      <Button asChild>
        <Link to="/shop">Shop Now</Link>
      </Button>
    </Panel>
  );
}
