/**
 * A guest ticking Subscribe & Save (issue 22): the email is confirmed by an emailed code right here in
 * checkout (no leaving the page: the cart and the typed form stay). Verifying signs the guest in (the
 * account is made, without a password, when the email has none), so the plan belongs to the account;
 * the server still refuses to charge a plan for anyone not signed in.
 */
import { AUTH_MESSAGES, signInResponseSchema } from '@nh/shared/contracts/auth';
import { EMAIL_PATTERN } from '@nh/shared/contracts/newsletter';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { authUserQueryKey } from '@/lib/auth';
import { apiRequest, serverMessageOf } from '@/lib/query-client';

interface Props {
  email: string;
  firstName: string;
  lastName: string;
  onVerified: () => void;
  onCancel: () => void;
}

export function GuestEmailCode({ email, firstName, lastName, onVerified, onCancel }: Props) {
  const queryClient = useQueryClient();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [sentMessage, setSentMessage] = useState('');
  const [code, setCode] = useState('');
  const address = email.trim().toLowerCase();
  const valid = EMAIL_PATTERN.test(address);

  const ask = useMutation({
    mutationFn: async () => {
      const res = await apiRequest('POST', '/api/login/email-code', { email: address, signUp: true });
      return ((await res.json()) as { message?: string }).message ?? AUTH_MESSAGES.codeSent;
    },
    onSuccess: (message) => {
      setSentTo(address);
      setSentMessage(message);
    },
  });
  const verify = useMutation({
    mutationFn: async () => {
      const res = await apiRequest('POST', '/api/login/email-code/verify', { email: sentTo, code, firstName: firstName || undefined, lastName: lastName || undefined });
      return signInResponseSchema.parse(await res.json()).user;
    },
    onSuccess: (user) => {
      queryClient.setQueryData(authUserQueryKey, user);
      onVerified();
    },
  });
  const error = ask.error ?? verify.error;

  return (
    <div className="space-y-3 rounded-2xl border border-brand-200 bg-brand-50 p-4" role="group" aria-labelledby="guest-code-title">
      <p id="guest-code-title" className="font-semibold text-brand-900">
        Confirm your email to subscribe
      </p>
      <p className="text-sm text-stone-700">
        A plan needs an account: we email a 6-digit code to {valid ? <strong>{address}</strong> : 'the email above'}. Nothing is charged until you confirm it; your cart and
        details stay as they are.
      </p>
      {!valid && <p className="text-sm text-red-700">Enter your email above first.</p>}
      <div className="flex flex-wrap gap-2">
        <Button type="button" variant={sentTo ? 'outline' : 'default'} disabled={!valid || ask.isPending} onClick={() => ask.mutate()}>
          {sentTo ? 'Email Me a New Code' : 'Email Me a Code'}
        </Button>
        <Button type="button" variant="ghost" onClick={onCancel}>
          Not now
        </Button>
      </div>
      {sentTo && (
        <div className="space-y-2">
          <p className="text-sm text-stone-700" role="status">
            {sentMessage}
          </p>
          <Label htmlFor="guest-code">Code from the email</Label>
          <div className="flex gap-2">
            <Input id="guest-code" inputMode="numeric" autoComplete="one-time-code" maxLength={7} value={code} onChange={(e) => setCode(e.target.value)} className="max-w-40" />
            <Button type="button" disabled={code.replace(/\s/g, '').length !== 6 || verify.isPending} onClick={() => verify.mutate()}>
              Confirm Email
            </Button>
          </div>
        </div>
      )}
      {error && (
        <p className="text-sm text-red-700" role="alert">
          {serverMessageOf(error) ?? 'Could not reach the shop. Please try again.'}
        </p>
      )}
    </div>
  );
}
