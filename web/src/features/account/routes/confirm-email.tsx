import { formatOrderDate } from '@nh/shared/contracts/admin';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Loader2 } from 'lucide-react';
import { useParams } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import { serverMessageOf } from '@/lib/query-client';
import { usePageMeta } from '@/lib/use-page-meta';
import { confirmEmailChange, fetchEmailChange } from '../email-change-api';
import { AccountPage, Card, ErrorNote } from '../components/account-page';

/**
 * /account/confirm-email/:token (issue 23): the link emailed to a new address when staff start changing
 * a customer's email. Opening the page reads the change (mail scanners open links: nothing is spent);
 * the customer's click confirms it, and only then does the account's email change.
 */
export default function ConfirmEmailPage() {
  usePageMeta({ title: 'Confirm your new email address' });
  const { token = '' } = useParams();
  const change = useQuery({ queryKey: ['/api/account/email-change', token], queryFn: () => fetchEmailChange(token), retry: false });
  const confirm = useMutation({ mutationFn: () => confirmEmailChange(token) });

  if (confirm.isSuccess) {
    return (
      <AccountPage title="Email address changed">
        <Card>
          <p className="mb-5 text-stone-700" role="status">
            {confirm.data.message}
          </p>
          <Button asChild>
            <a href="/api/login">Log In</a>
          </Button>
        </Card>
      </AccountPage>
    );
  }
  if (change.isPending) {
    return (
      <AccountPage title="Confirm your new email address">
        <Card>
          <p className="text-stone-600">Checking your link...</p>
        </Card>
      </AccountPage>
    );
  }
  if (change.isError) {
    return (
      <AccountPage title="Confirm your new email address">
        <Card>
          <ErrorNote>{serverMessageOf(change.error) ?? 'The link could not be checked. Please try again.'}</ErrorNote>
        </Card>
      </AccountPage>
    );
  }
  return (
    <AccountPage title="Confirm your new email address">
      <Card>
        <div className="grid gap-4">
          <p className="text-stone-700">
            Your account’s email address will become <strong className="break-all">{change.data.email}</strong>. From then on you sign in with it, and emails about your orders and
            subscriptions go there.
          </p>
          <p className="text-sm text-stone-600">This link works once, until {formatOrderDate(change.data.expiresAt)}.</p>
          {confirm.isError && <ErrorNote>{serverMessageOf(confirm.error) ?? 'The email address could not be changed. Please try again.'}</ErrorNote>}
          <Button type="button" disabled={confirm.isPending} onClick={() => confirm.mutate()}>
            {confirm.isPending && <Loader2 className="animate-spin" aria-hidden="true" />}
            Confirm my new email address
          </Button>
        </div>
      </Card>
    </AccountPage>
  );
}
