/**
 * The shopper changes their own email address (issue 23; POST /api/account/email): the new address and
 * their current password (an account that signs in with emailed codes leaves it empty and must have
 * signed in within 10 minutes). The link goes to the new address; the account keeps its address until
 * it is confirmed there. The server's words are shown as they come.
 */
import { EMAIL_CHANGE_MESSAGES, type EmailChangeStarted } from '@nh/shared/contracts/email-change';
import { useMutation } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { apiRequest, readJson, serverMessageOf } from '@/lib/query-client';
import { Card } from './account-page';

export function ChangeEmail({ currentEmail }: { currentEmail: string }) {
  const ids = { email: useId(), password: useId(), hint: useId() };
  const [open, setOpen] = useState(false);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const change = useMutation({
    mutationFn: async (body: { email: string; password?: string }) => readJson<EmailChangeStarted>(await apiRequest('POST', '/api/account/email', body)),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    const next = email.trim();
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(next)) return setProblem(EMAIL_CHANGE_MESSAGES.email);
    setProblem(null);
    if (!change.isPending) change.mutate(password ? { email: next, password } : { email: next });
  }
  const shown = problem ?? (change.isError ? (serverMessageOf(change.error) ?? 'Your request could not be sent. Please try again.') : null);

  return (
    <section aria-labelledby={`${ids.email}-title`} className="mb-6">
      <Card>
        <h2 id={`${ids.email}-title`} className="text-lg font-semibold text-brand-900">
          Email address
        </h2>
        <p className="mt-1 text-sm text-stone-600">
          You sign in with <span className="font-medium text-stone-800">{currentEmail}</span>.
        </p>
        {change.data ? (
          <p role="status" className="mt-4 rounded-lg border border-emerald-200 bg-emerald-50 p-3 text-sm text-emerald-900">
            {change.data.message}
          </p>
        ) : !open ? (
          <Button type="button" variant="outline" className="mt-4" onClick={() => setOpen(true)}>
            Change my email address
          </Button>
        ) : (
          <form onSubmit={submit} noValidate className="mt-4 grid gap-4" aria-label="Change my email address">
            <div className="grid gap-1.5">
              <Label htmlFor={ids.email}>New email address</Label>
              <Input id={ids.email} type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} />
            </div>
            <div className="grid gap-1.5">
              <Label htmlFor={ids.password}>Current password</Label>
              <Input id={ids.password} type="password" autoComplete="current-password" aria-describedby={ids.hint} value={password} onChange={(e) => setPassword(e.target.value)} />
              <p id={ids.hint} className="text-xs text-stone-500">
                If you sign in with codes from your email, leave this empty (you must have signed in within the last 10 minutes).
              </p>
            </div>
            {shown && (
              <p role="alert" className="text-sm text-red-700">
                {shown}
              </p>
            )}
            <div className="flex gap-2">
              <Button type="submit" disabled={change.isPending}>
                {change.isPending ? 'Sending…' : 'Send a confirmation link'}
              </Button>
              <Button type="button" variant="ghost" onClick={() => setOpen(false)}>
                Cancel
              </Button>
            </div>
          </form>
        )}
      </Card>
    </section>
  );
}
