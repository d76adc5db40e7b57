import { zodResolver } from '@hookform/resolvers/zod';
import { STAFF_MESSAGES, staffSignInSchema } from '@nh/shared/contracts/staff';
import { Loader2 } from 'lucide-react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router-dom';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { LabelledField } from '@/components/ui/labelled-field';
import { ApiError, serverMessageOf } from '@/lib/query-client';
import { AdminCentered } from './admin-page';
import { useSignIn } from './staff-session';

/** The words for a refused sign-in: the server's message, else the one its status stands for. */
export function signInErrorMessage(error: unknown): string {
  const status = error instanceof ApiError ? error.status : 0;
  const fallback = status === 401 ? STAFF_MESSAGES.signInFailed : status === 403 ? STAFF_MESSAGES.accountDisabled : status === 429 ? STAFF_MESSAGES.tooManySignIns : undefined;
  return (status >= 400 && status < 500 ? serverMessageOf(error) : undefined) ?? fallback ?? 'Signing in failed. Please try again.';
}

/** Shown at any admin route while nobody is signed in; the route appears once signed in. */
export function SignInScreen() {
  const signIn = useSignIn();
  const form = useForm({ resolver: zodResolver(staffSignInSchema), defaultValues: { email: '', password: '' } });
  const { errors } = form.formState;
  const submit = form.handleSubmit((values) => {
    if (signIn.isPending) return;
    signIn.mutate(values, { onError: () => form.setValue('password', '') });
  });

  return (
    <AdminCentered title="Sign in" description={STAFF_MESSAGES.signInRequired}>
      <form onSubmit={(e) => void submit(e)} noValidate className="grid gap-4">
        {signIn.isError && (
          <Alert variant="destructive">
            <AlertDescription>{signInErrorMessage(signIn.error)}</AlertDescription>
          </Alert>
        )}
        <LabelledField label="Email" type="email" autoComplete="username" error={errors.email} {...form.register('email')} />
        <LabelledField label="Password" type="password" autoComplete="current-password" error={errors.password} {...form.register('password')} />
        <Button type="submit" disabled={signIn.isPending}>
          {signIn.isPending && <Loader2 className="animate-spin" aria-hidden="true" />}
          Sign in
        </Button>
        <Link to="/admin/forgot-password" className="justify-self-start text-sm font-medium text-brand-700 underline-offset-4 hover:underline">
          Forgot password?
        </Link>
      </form>
    </AdminCentered>
  );
}
