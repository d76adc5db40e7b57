/**
 * /email-actions/:token, the page of a one-click link in a plan email (issue 22): no sign-in, the token in
 * the path is the credential. Opening it changes nothing (GET: a link scanner or a mail preview does no
 * harm); it names the plan, the delivery and what the action does, with one confirm button (POST). A cancel
 * link shows the cancel dialog's reasons (optional) beside its one button. A link used, out of date (its
 * delivery charged, skipped or moved) or unknown is a plain message offering to sign in with an emailed code.
 * Rendered in the browser only (the server sends the shop's head, not indexed).
 */
import { formatPrice } from '@nh/shared';
import { CANCEL_REASONS, COMMENT_MAX_LENGTH, type CancelReason } from '@nh/shared/contracts/cancellation';
import {
  EMAIL_ACTION_MESSAGES as MSG,
  emailActionResultSchema,
  emailActionViewSchema,
  type EmailActionRequest,
  type EmailActionResult,
  type EmailActionView,
} from '@nh/shared/contracts/email-actions';
import { cadenceWords } from '@nh/shared/contracts/subscriptions';
import { useMutation, useQuery } from '@tanstack/react-query';
import { CalendarClock, CheckCircle2, Link2Off } from 'lucide-react';
import { useId, useState, type ReactNode } from 'react';
import { Link, useParams } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { Textarea } from '@/components/ui/textarea';
import { formatLongDate } from '@/lib/format-date';
import { ApiError, apiRequest, serverMessageOf } from '@/lib/query-client';
import { usePageMeta } from '@/lib/use-page-meta';

/** The sign-in page (the API's own), which offers the emailed code first. */
const LOGIN_URL = '/api/login';
const actionUrl = (token: string) => `/api/email-actions/${encodeURIComponent(token)}`;

async function fetchAction(token: string): Promise<EmailActionView> {
  const res = await apiRequest('GET', actionUrl(token));
  return emailActionViewSchema.parse(await res.json());
}

async function confirmAction(token: string, body: EmailActionRequest): Promise<EmailActionResult> {
  const res = await apiRequest('POST', actionUrl(token), body);
  return emailActionResultSchema.parse(await res.json());
}

/** The link itself is no longer usable: shown as the plain message with the sign-in offer. */
const GONE = new Set(['EMAIL_ACTION_INVALID', 'EMAIL_ACTION_USED', 'EMAIL_ACTION_STALE']);
function isLinkGone(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  try {
    return GONE.has((JSON.parse(error.body) as { code?: string }).code ?? '');
  } catch {
    return false;
  }
}

export default function EmailActionRoute() {
  const { token = '' } = useParams();
  usePageMeta({ title: 'Your subscription' });
  // The key never holds the token (the query cache is inspectable); one page, one link.
  const view = useQuery({ queryKey: ['email-action'], queryFn: () => fetchAction(token), retry: false, gcTime: 0, staleTime: Infinity });
  const confirm = useMutation({ mutationFn: (body: EmailActionRequest) => confirmAction(token, body) });

  let content: ReactNode;
  if (view.isPending) {
    content = (
      <div aria-busy="true" aria-label="Loading" className="space-y-3">
        <Skeleton className="h-8 w-3/4" />
        <Skeleton className="h-5 w-full" />
      </div>
    );
  } else if (view.isError) {
    content = <Unusable message={serverMessageOf(view.error) ?? 'We could not load this page. Please try again in a moment.'} />;
  } else if (confirm.isSuccess) {
    content = (
      <Panel icon={<CheckCircle2 aria-hidden="true" />} title="Done">
        <p data-testid="email-action-done">{confirm.data.done}</p>
        {confirm.data.status !== 'cancelled' && <p>Your next delivery is on {formatLongDate(confirm.data.nextBillingDate)}.</p>}
        <p>We have recorded the change on your plan. {MSG.contact}</p>
        <Manage />
      </Panel>
    );
  } else if (confirm.isError && isLinkGone(confirm.error)) {
    content = <Unusable message={serverMessageOf(confirm.error)!} />;
  } else {
    content = (
      <Confirm
        view={view.data}
        sending={confirm.isPending}
        error={confirm.isError ? (serverMessageOf(confirm.error) ?? 'That did not work. Please try again.') : null}
        onConfirm={(body) => confirm.mutate(body)}
      />
    );
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

function Confirm({
  view,
  sending,
  error,
  onConfirm,
}: {
  view: EmailActionView;
  sending: boolean;
  error: string | null;
  onConfirm: (body: EmailActionRequest) => void;
}) {
  const [reason, setReason] = useState<CancelReason | ''>('');
  const [comment, setComment] = useState('');
  const commentId = useId();
  const cancelling = view.action === 'cancel';
  const cancelBody = (): EmailActionRequest =>
    reason ? { reason, ...(reason === 'other' && comment.trim() ? { comment: comment.trim() } : {}) } : {};
  return (
    <Panel icon={<CalendarClock aria-hidden="true" />} title={`${view.label}?`}>
      <dl className="grid grid-cols-1 gap-3 text-sm sm:grid-cols-2" data-testid="plan-summary">
        <Fact label="Items">{view.productNames.join(', ')}</Fact>
        <Fact label="Each delivery">
          {formatPrice(view.amount)} · {cadenceWords(view.interval, view.intervalCount).toLowerCase()}
        </Fact>
        <Fact label="Delivery">{formatLongDate(view.deliveryDate)}</Fact>
      </dl>
      <p className="text-sm" data-testid="email-action-effect">
        {view.effect}
      </p>
      {cancelling && (
        <fieldset className="space-y-2 text-sm">
          <legend className="font-medium text-stone-900">Would you tell us why? (optional)</legend>
          {(Object.entries(CANCEL_REASONS) as Array<[CancelReason, string]>).map(([value, words]) => (
            <label key={value} className="flex min-h-11 items-center gap-3 rounded-lg border border-stone-200 px-3">
              <input
                type="radio"
                name="reason"
                value={value}
                checked={reason === value}
                onChange={() => setReason(value)}
                className="size-4"
              />
              {words}
            </label>
          ))}
          {reason === 'other' && (
            <div className="space-y-1">
              <label htmlFor={commentId} className="font-medium text-stone-900">
                Tell us more (optional)
              </label>
              <Textarea
                id={commentId}
                value={comment}
                maxLength={COMMENT_MAX_LENGTH}
                rows={2}
                disabled={sending}
                onChange={(event) => setComment(event.target.value)}
              />
            </div>
          )}
        </fieldset>
      )}
      {error && (
        <p role="alert" className="text-sm font-medium text-red-700">
          {error}
        </p>
      )}
      <div className="flex flex-wrap gap-3">
        <Button
          type="button"
          className="min-h-11 w-full sm:w-auto"
          variant={cancelling ? 'destructive' : 'default'}
          disabled={sending}
          onClick={() => onConfirm(cancelling ? cancelBody() : {})}
        >
          {sending ? 'Working…' : view.label}
        </Button>
        <Button asChild variant="outline" className="min-h-11 w-full sm:w-auto">
          <Link to="/">Not Now</Link>
        </Button>
      </div>
      <p className="text-xs text-stone-500">Nothing changes until you press the button.</p>
    </Panel>
  );
}

function Unusable({ message }: { message: string }) {
  return (
    <Panel icon={<Link2Off aria-hidden="true" />} title="This link cannot be used">
      <p data-testid="link-unusable">{message}</p>
      <p>{MSG.contact}</p>
      <Manage />
    </Panel>
  );
}

/** Sign in (the sign-in page offers a code by email first; no password needed), then My Subscriptions. */
function Manage() {
  return (
    <div className="flex flex-wrap gap-3">
      {/* A full page load: sign-in is the API's own page, not a route of this app. */}
      <Button asChild>
        <a href={LOGIN_URL}>Sign In with an Emailed Code</a>
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
    <section aria-labelledby="email-action-heading" className="min-w-0 space-y-4 text-stone-700">
      <span className="inline-flex size-12 items-center justify-center rounded-full bg-brand-100 text-brand-700 [&>svg]:size-6">
        {icon}
      </span>
      <h1 id="email-action-heading" className="text-2xl font-bold tracking-tight text-brand-900">
        {title}
      </h1>
      {children}
    </section>
  );
}
