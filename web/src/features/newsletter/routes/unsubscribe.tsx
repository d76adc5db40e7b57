import { SHOP } from '@nh/shared/constants';
import { MailCheck, MailX } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router-dom';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { ApiError } from '@/lib/query-client';
import { usePageMeta } from '@/lib/use-page-meta';
import { NewsletterForm } from '../components/newsletter-form';
import { useUnsubscribe, useUnsubscribeState } from '../unsubscribe-api';

const STILL_ARRIVE = 'Emails about your orders and your Subscribe & Save plan will still reach you.';

/**
 * /unsubscribe/:token, the page every newsletter email links to: one button to leave the list, a plain
 * statement of what happened, and the sign-up form for anyone who changes their mind.
 */
export default function UnsubscribeRoute() {
  const { token = '' } = useParams();
  usePageMeta({ title: 'Unsubscribe' });
  const state = useUnsubscribeState(token);
  const unsubscribe = useUnsubscribe(token);

  let content: ReactNode;
  if (state.isPending) {
    content = (
      <div aria-busy="true" aria-label="Loading" className="space-y-3">
        <Skeleton className="h-8 w-3/4" />
        <Skeleton className="h-5 w-full" />
      </div>
    );
  } else if (state.isError) {
    const unknown = state.error instanceof ApiError && state.error.status === 404;
    content = (
      <Panel icon={<MailX aria-hidden="true" />} title={unknown ? 'We could not find this link' : 'Something went wrong'}>
        <p>
          {unknown
            ? 'This unsubscribe link is not valid. Please open the whole link from the bottom of one of our emails.'
            : 'We could not load this page. Please try again in a moment.'}
        </p>
        <p>
          If it keeps happening, email us at{' '}
          <a href={`mailto:${SHOP.supportEmail}`} className="font-medium text-brand-700 underline">
            {SHOP.supportEmail}
          </a>{' '}
          and we will take you off the list.
        </p>
      </Panel>
    );
  } else if (state.data.subscribed) {
    content = (
      <Panel icon={<MailX aria-hidden="true" />} title={`Unsubscribe from the ${SHOP.name} newsletter`}>
        <p>
          This will stop our newsletter emails to <strong>{state.data.email}</strong>. {STILL_ARRIVE}
        </p>
        {unsubscribe.isError && (
          <Alert variant="destructive">
            <AlertDescription>We could not unsubscribe you just now. Please try again.</AlertDescription>
          </Alert>
        )}
        <Button size="lg" onClick={() => unsubscribe.mutate()} disabled={unsubscribe.isPending}>
          {unsubscribe.isPending ? 'Unsubscribing...' : 'Unsubscribe'}
        </Button>
      </Panel>
    );
  } else {
    content = (
      <Panel icon={<MailCheck aria-hidden="true" />} title="You have been unsubscribed">
        <p>
          We will send no more newsletter emails to <strong>{state.data.email}</strong>. {STILL_ARRIVE}
        </p>
        <p>Changed your mind? You can sign up again with the form below.</p>
      </Panel>
    );
  }

  return (
    <>
      <div className="bg-cream px-4 pb-16 pt-28 sm:px-6 md:pt-36">
        <div aria-live="polite" className="mx-auto max-w-xl rounded-3xl bg-white px-6 py-10 shadow-sm sm:px-10">
          {content}
        </div>
        <p className="mt-6 text-center">
          <Link to="/" className="font-medium text-brand-700 underline">
            Back to the shop
          </Link>
        </p>
      </div>
      {state.data && !state.data.subscribed && <NewsletterForm />}
    </>
  );
}

function Panel({ icon, title, children }: { icon: ReactNode; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby="unsubscribe-heading" className="space-y-4 text-stone-700">
      <span className="inline-flex size-12 items-center justify-center rounded-full bg-brand-100 text-brand-700 [&>svg]:size-6">
        {icon}
      </span>
      <h1 id="unsubscribe-heading" className="text-2xl font-bold tracking-tight text-brand-900">
        {title}
      </h1>
      {children}
    </section>
  );
}
