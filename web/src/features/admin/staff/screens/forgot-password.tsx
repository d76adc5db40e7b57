import { zodResolver } from '@hookform/resolvers/zod';
import { requestStaffResetSchema, STAFF_MESSAGES } from '@nh/shared/contracts/staff';
import { useMutation } from '@tanstack/react-query';
import { Loader2 } from 'lucide-react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router-dom';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { LabelledField } from '@/components/ui/labelled-field';
import { ApiError, serverMessageOf } from '@/lib/query-client';
import { usePageMeta } from '@/lib/use-page-meta';
import { AdminCentered } from '../../shell/admin-page';
import { requestPasswordReset } from '../api';

const backToSignIn = (
  <Link to="/admin" className="text-sm font-medium text-brand-700 underline-offset-4 hover:underline">
    Back to sign in
  </Link>
);

/**
 * /admin/forgot-password: asks for a reset link. The answer is the same whether or not an account
 * uses the email (no account discovery), so the screen always shows the same words.
 */
export default function ForgotPasswordPage() {
  usePageMeta({ title: 'Forgot password' });
  const form = useForm({ resolver: zodResolver(requestStaffResetSchema), defaultValues: { email: '' } });
  const request = useMutation({
    mutationFn: (email: string) => requestPasswordReset(email),
  });
  const tooMany = request.error instanceof ApiError && request.error.status === 429;
  const done = request.isSuccess || (request.isError && !tooMany && request.error instanceof ApiError);

  if (done) {
    return (
      <AdminCentered title="Check your email">
        <p className="mb-4 text-stone-700" role="status">
          {STAFF_MESSAGES.resetSent}
        </p>
        {backToSignIn}
      </AdminCentered>
    );
  }

  return (
    <AdminCentered title="Forgot password" description="Enter the email of your staff account and we will send you a link to choose a new password.">
      <form onSubmit={(e) => void form.handleSubmit(({ email }) => request.mutate(email))(e)} noValidate className="grid gap-4">
        {request.isError && (
          <Alert variant="destructive">
            <AlertDescription>{tooMany ? (serverMessageOf(request.error) ?? STAFF_MESSAGES.tooManyTokenRequests) : 'The request could not be sent. Please try again.'}</AlertDescription>
          </Alert>
        )}
        <LabelledField label="Email" type="email" autoComplete="username" error={form.formState.errors.email} {...form.register('email')} />
        <Button type="submit" disabled={request.isPending}>
          {request.isPending && <Loader2 className="animate-spin" aria-hidden="true" />}
          Send reset link
        </Button>
        {backToSignIn}
      </form>
    </AdminCentered>
  );
}
