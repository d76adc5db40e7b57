import { zodResolver } from '@hookform/resolvers/zod';
import { ACCOUNT_MESSAGES, PASSWORDS_DIFFER, resetPasswordRequestSchema } from '@nh/shared/contracts/account';
import { PASSWORD_MIN_LENGTH } from '@nh/shared/contracts/auth';
import { useMutation } from '@tanstack/react-query';
import { Loader2 } from 'lucide-react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router-dom';
import { z } from 'zod';
import { Button } from '@/components/ui/button';
import { LabelledField } from '@/components/ui/labelled-field';
import { useLinkToken } from '@/lib/link-token';
import { serverMessageOf } from '@/lib/query-client';
import { usePageMeta } from '@/lib/use-page-meta';
import { resetPassword } from '../api';
import { AccountPage, Card, ErrorNote, linkClass } from '../components/account-page';

const formSchema = resetPasswordRequestSchema
  .pick({ password: true })
  .extend({ confirm: z.string() })
  .refine((v) => v.password === v.confirm, { message: PASSWORDS_DIFFER, path: ['confirm'] });
type ResetForm = z.infer<typeof formSchema>;

const requestAgain = (
  <Link to="/account/forgot-password" className={linkClass}>
    Request a new link
  </Link>
);

/** /account/reset-password#token=…: choose a new password with the emailed single-use link (1 hour). */
export default function ResetPasswordPage() {
  usePageMeta({ title: 'Choose a new password' });
  const token = useLinkToken();
  const form = useForm<ResetForm>({ resolver: zodResolver(formSchema), defaultValues: { password: '', confirm: '' } });
  const reset = useMutation({ mutationFn: ({ password }: ResetForm) => resetPassword({ token, password }) });

  if (!resetPasswordRequestSchema.shape.token.safeParse(token).success) {
    return (
      <AccountPage title="Choose a new password">
        <Card>
          <p className="mb-4 text-stone-700">{ACCOUNT_MESSAGES.resetInvalid}</p>
          {requestAgain}
        </Card>
      </AccountPage>
    );
  }
  if (reset.isSuccess) {
    return (
      <AccountPage title="Password changed">
        <Card>
          <p className="mb-5 text-stone-700" role="status">
            {reset.data}
          </p>
          <Button asChild>
            <a href="/api/login">Log In</a>
          </Button>
        </Card>
      </AccountPage>
    );
  }
  return (
    <AccountPage title="Choose a new password">
      <Card>
        <form onSubmit={(e) => void form.handleSubmit((values) => reset.mutate(values))(e)} noValidate className="grid gap-4">
          {reset.isError && (
            <ErrorNote>
              {serverMessageOf(reset.error) ?? 'The password could not be changed. Please try again.'} {requestAgain}
            </ErrorNote>
          )}
          <div className="grid gap-1">
            <LabelledField label="New password" type="password" autoComplete="new-password" error={form.formState.errors.password} {...form.register('password')} />
            {!form.formState.errors.password && <p className="text-xs text-stone-600">At least {PASSWORD_MIN_LENGTH} characters.</p>}
          </div>
          <LabelledField label="Confirm new password" type="password" autoComplete="new-password" error={form.formState.errors.confirm} {...form.register('confirm')} />
          <Button type="submit" disabled={reset.isPending}>
            {reset.isPending && <Loader2 className="animate-spin" aria-hidden="true" />}
            Change password
          </Button>
        </form>
      </Card>
    </AccountPage>
  );
}
