import { zodResolver } from '@hookform/resolvers/zod';
import { forgotPasswordRequestSchema, type ForgotPasswordRequest } from '@nh/shared/contracts/account';
import { useMutation } from '@tanstack/react-query';
import { Loader2 } from 'lucide-react';
import { useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { LabelledField } from '@/components/ui/labelled-field';
import { serverMessageOf } from '@/lib/query-client';
import { usePageMeta } from '@/lib/use-page-meta';
import { forgotPassword } from '../api';
import { AccountPage, Card, CheckYourEmail, ErrorNote, linkClass } from '../components/account-page';

/** /account/forgot-password: asks for a reset link; the same answer whether or not an account uses the email. */
export default function ForgotPasswordPage() {
  usePageMeta({ title: 'Forgot your password?' });
  const form = useForm<ForgotPasswordRequest>({ resolver: zodResolver(forgotPasswordRequestSchema), defaultValues: { email: '' } });
  const request = useMutation({ mutationFn: forgotPassword });

  if (request.isSuccess) return <CheckYourEmail message={request.data} />;
  return (
    <AccountPage title="Forgot your password?">
      <Card>
        <p className="mb-5 text-stone-700">Enter the email of your account and we will send you a link to choose a new password.</p>
        <form onSubmit={(e) => void form.handleSubmit((values) => request.mutate(values))(e)} noValidate className="grid gap-4">
          {request.isError && <ErrorNote>{serverMessageOf(request.error) ?? 'The request could not be sent. Please try again.'}</ErrorNote>}
          <LabelledField label="Email" type="email" autoComplete="email" error={form.formState.errors.email} {...form.register('email')} />
          <Button type="submit" disabled={request.isPending}>
            {request.isPending && <Loader2 className="animate-spin" aria-hidden="true" />}
            Send reset link
          </Button>
        </form>
        <p className="mt-5 text-sm">
          <a href="/api/login" className={linkClass}>
            Back to Log In
          </a>
        </p>
      </Card>
    </AccountPage>
  );
}
