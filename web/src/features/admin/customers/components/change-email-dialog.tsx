/**
 * "Change email" on a customer's page (issue 23): staff type the new address; the customer gets a link
 * there and confirms it themselves; nothing changes until they do (docs/decisions/admin.md).
 */
import { EMAIL_CHANGE_MESSAGES, emailChangeStartSchema, type EmailChangeStarted } from '@nh/shared/contracts/email-change';
import { useMutation } from '@tanstack/react-query';
import { AtSign, Loader2 } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { toast } from '@/components/ui/use-toast';
import { apiRequest, readJson, serverMessageOf } from '@/lib/query-client';

function ChangeEmailForm({ customerId, currentEmail, onDone, onClose }: { customerId: string; currentEmail: string; onDone: () => void; onClose: () => void }) {
  const ids = { email: useId(), error: useId() };
  const [email, setEmail] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const start = useMutation({
    mutationFn: async (body: { email: string }) =>
      readJson<EmailChangeStarted>(await apiRequest('POST', `/api/admin/customers/${encodeURIComponent(customerId)}/email-change`, body)),
    onSuccess: (answer) => {
      toast({ title: `Link sent to ${answer.email}`, description: answer.message });
      onDone();
      onClose();
    },
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = emailChangeStartSchema.safeParse({ email });
    if (!parsed.success) return setProblem(parsed.error.issues[0]?.message ?? EMAIL_CHANGE_MESSAGES.email);
    if (parsed.data.email === currentEmail.toLowerCase()) return setProblem(EMAIL_CHANGE_MESSAGES.sameEmail);
    setProblem(null);
    if (!start.isPending) start.mutate(parsed.data);
  }

  const shown = problem ?? (start.isError ? (serverMessageOf(start.error) ?? 'The link could not be sent. Please try again.') : null);
  return (
    <form onSubmit={submit} noValidate>
      <DialogHeader>
        <DialogTitle>Change the customer’s email</DialogTitle>
        <DialogDescription>
          The new address gets a link to confirm the change (it works once, for 24 hours). The email stays {currentEmail} until the customer confirms; then the old address is told.
        </DialogDescription>
      </DialogHeader>
      <div className="my-4 grid gap-4">
        <div className="grid gap-1">
          <Label htmlFor={ids.email}>New email address</Label>
          <Input id={ids.email} type="email" autoComplete="off" value={email} onChange={(e) => setEmail(e.target.value)} aria-describedby={shown ? ids.error : undefined} />
        </div>
        {shown && (
          <p id={ids.error} role="alert" className="rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-800">
            {shown}
          </p>
        )}
      </div>
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onClose}>
          Cancel
        </Button>
        <Button type="submit" disabled={start.isPending}>
          {start.isPending && <Loader2 className="animate-spin" aria-hidden="true" />}
          Send confirmation link
        </Button>
      </DialogFooter>
    </form>
  );
}

/** The button and its dialog, for an account (the host decides who sees it: customers.edit). */
export function ChangeEmailButton({ customerId, currentEmail, onDone }: { customerId: string; currentEmail: string; onDone: () => void }) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <Button type="button" variant="outline" onClick={() => setOpen(true)}>
        <AtSign aria-hidden="true" />
        Change email
      </Button>
      <DialogContent>{open && <ChangeEmailForm customerId={customerId} currentEmail={currentEmail} onDone={onDone} onClose={() => setOpen(false)} />}</DialogContent>
    </Dialog>
  );
}
