import { zodResolver } from '@hookform/resolvers/zod';
import { confirmStaffResetSchema, STAFF_MESSAGES } from '@nh/shared/contracts/staff';
import { useMutation } from '@tanstack/react-query';
import { Loader2 } from 'lucide-react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router-dom';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { useLinkToken } from '@/lib/link-token';
import { ApiError, serverMessageOf } from '@/lib/query-client';
import { usePageMeta } from '@/lib/use-page-meta';
import { AdminCentered } from '../../shell/admin-page';
import { confirmPasswordReset } from '../api';
import { NewPasswordFields } from '../components/new-password-fields';
import { newPasswordFormSchema, type NewPasswordForm } from '../password-form';

const link = 'text-sm font-medium text-brand-700 underline-offset-4 hover:underline';

/** The words for a refused reset: the server's (an invalid, expired or used link), else a generic one. */
const failure = (error: unknown) =>
  error instanceof ApiError && error.status >= 400 && error.status < 500 ? (serverMessageOf(error) ?? STAFF_MESSAGES.resetInvalid) : 'The password could not be changed. Please try again.';

/** /admin/reset-password#token=…: choose a new password with the emailed single-use link (1 hour). */
export default function ResetPasswordPage() {
  usePageMeta({ title: 'Choose a new password' });
  const token = useLinkToken();
  const form = useForm<NewPasswordForm>({ resolver: zodResolver(newPasswordFormSchema), defaultValues: { password: '', confirm: '' } });
  const reset = useMutation({ mutationFn: ({ password }: NewPasswordForm) => confirmPasswordReset(token, password) });

  if (!confirmStaffResetSchema.shape.token.safeParse(token).success) {
    return (
      <AdminCentered title="Choose a new password">
        <p className="mb-4 text-stone-700">{STAFF_MESSAGES.resetInvalid}</p>
        <Link to="/admin/forgot-password" className={link}>
          Request a new link
        </Link>
      </AdminCentered>
    );
  }

  if (reset.isSuccess) {
    return (
      <AdminCentered title="Password changed">
        <p className="mb-4 text-stone-700" role="status">
          {STAFF_MESSAGES.passwordChanged}
        </p>
        <Button asChild>
          <Link to="/admin">Sign in</Link>
        </Button>
      </AdminCentered>
    );
  }

  return (
    <AdminCentered title="Choose a new password">
      <form onSubmit={(e) => void form.handleSubmit((values) => reset.mutate(values))(e)} noValidate className="grid gap-4">
        {reset.isError && (
          <Alert variant="destructive">
            <AlertDescription>
              {failure(reset.error)}{' '}
              <Link to="/admin/forgot-password" className="underline">
                Request a new link
              </Link>
            </AlertDescription>
          </Alert>
        )}
        <NewPasswordFields password={form.register('password')} confirm={form.register('confirm')} errors={form.formState.errors} />
        <Button type="submit" disabled={reset.isPending}>
          {reset.isPending && <Loader2 className="animate-spin" aria-hidden="true" />}
          Change password
        </Button>
      </form>
    </AdminCentered>
  );
}
