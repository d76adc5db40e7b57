import { zodResolver } from '@hookform/resolvers/zod';
import { invitationTokenSchema, STAFF_MESSAGES, STAFF_ROLE_DESCRIPTIONS, STAFF_ROLE_LABELS } from '@nh/shared/contracts/staff';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Loader2 } from 'lucide-react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router-dom';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { LabelledField } from '@/components/ui/labelled-field';
import { toast } from '@/components/ui/use-toast';
import { useLinkToken } from '@/lib/link-token';
import { ApiError, serverMessageOf } from '@/lib/query-client';
import { usePageMeta } from '@/lib/use-page-meta';
import { AdminCentered } from '../../shell/admin-page';
import { setSignedIn } from '../../shell/staff-session';
import { acceptInvitation, staffQueries } from '../api';
import { NewPasswordFields } from '../components/new-password-fields';
import { invitationFormSchema, type InvitationForm } from '../password-form';

/** An invitation refused (404 not valid, 410 expired or used): the server's words, else "not valid". */
const refusal = (error: unknown) =>
  error instanceof ApiError && error.status >= 400 && error.status < 500 ? (serverMessageOf(error) ?? STAFF_MESSAGES.invitationInvalid) : undefined;

function Refused({ message }: { message: string }) {
  return (
    <AdminCentered title="Invitation">
      <p className="mb-4 text-stone-700" role="alert">
        {message}
      </p>
      <Link to="/admin" className="text-sm font-medium text-brand-700 underline-offset-4 hover:underline">
        Go to sign in
      </Link>
    </AdminCentered>
  );
}

function AcceptForm({ token, email, role }: { token: string; email: string; role: keyof typeof STAFF_ROLE_LABELS }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const form = useForm<InvitationForm>({ resolver: zodResolver(invitationFormSchema), defaultValues: { name: '', password: '', confirm: '' } });
  const accept = useMutation({
    mutationFn: ({ name, password }: InvitationForm) => acceptInvitation({ token, name, password }),
    onSuccess: async (staff) => {
      setSignedIn(queryClient, staff);
      toast({ title: STAFF_MESSAGES.signedIn });
      await navigate('/admin', { replace: true });
    },
  });
  const { errors } = form.formState;

  return (
    <AdminCentered title="Join the back office" description="Choose your name and a password to finish setting up your staff account.">
      <dl className="mb-4 grid grid-cols-[4rem_1fr] gap-1 rounded-lg bg-stone-50 p-3 text-sm">
        <dt className="text-stone-500">Email</dt>
        <dd className="break-all font-medium">{email}</dd>
        <dt className="text-stone-500">Role</dt>
        <dd>
          <span className="font-medium">{STAFF_ROLE_LABELS[role]}</span>
          <span className="block text-stone-600">{STAFF_ROLE_DESCRIPTIONS[role]}</span>
        </dd>
      </dl>
      <form onSubmit={(e) => void form.handleSubmit((values) => accept.mutate(values))(e)} noValidate className="grid gap-4">
        {accept.isError && (
          <Alert variant="destructive">
            <AlertDescription>{refusal(accept.error) ?? 'The account could not be created. Please try again.'}</AlertDescription>
          </Alert>
        )}
        <LabelledField label="Your name" autoComplete="name" error={errors.name} {...form.register('name')} />
        <NewPasswordFields password={form.register('password')} confirm={form.register('confirm')} errors={errors} />
        <Button type="submit" disabled={accept.isPending}>
          {accept.isPending && <Loader2 className="animate-spin" aria-hidden="true" />}
          Create account
        </Button>
      </form>
    </AdminCentered>
  );
}

/** /admin/invite#token=…: checks the emailed single-use link, then creates the account and signs it in. */
export default function AcceptInvitationPage() {
  usePageMeta({ title: 'Join the back office' });
  const token = useLinkToken();
  const wellFormed = invitationTokenSchema.safeParse({ token }).success;
  const details = useQuery({ ...staffQueries.invitation(token), enabled: wellFormed });

  if (!wellFormed) return <Refused message={STAFF_MESSAGES.invitationInvalid} />;
  if (details.isPending) {
    return (
      <AdminCentered title="Invitation">
        <p className="flex items-center gap-2 text-stone-600" aria-busy="true">
          <Loader2 className="size-4 animate-spin" aria-hidden="true" />
          Checking the invitation...
        </p>
      </AdminCentered>
    );
  }
  if (details.isError) return <Refused message={refusal(details.error) ?? 'The invitation could not be checked. Please try again.'} />;
  return <AcceptForm token={token} email={details.data.email} role={details.data.role} />;
}
