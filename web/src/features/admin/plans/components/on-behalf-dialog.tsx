/**
 * The frame of a change staff make for the customer (items, address, card link): what will happen, the
 * change's own fields, the reason for the audit trail (never sent to the customer), the server's refusal
 * shown in the dialog, and the two buttons. Fits a 360 px screen.
 */
import { AlertCircle, Loader2 } from 'lucide-react';
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { serverMessageOf } from '@/lib/query-client';
import { useChangeForCustomer, type OnBehalfChange } from '../on-behalf-api';

interface Props {
  title: string;
  description: string;
  submitLabel: string;
  pending: boolean;
  problem: string | null;
  reason: string;
  onReason: (reason: string) => void;
  onSubmit: () => void;
  onClose: () => void;
  children?: ReactNode;
}

export function OnBehalfDialog({ title, description, submitLabel, pending, problem, reason, onReason, onSubmit, onClose, children }: Props) {
  const ids = { reason: useId(), problem: useId() };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!pending) onSubmit();
  };
  return (
    <Dialog open onOpenChange={(open) => !open && !pending && onClose()}>
      <DialogContent hideClose={pending}>
        <form onSubmit={submit} noValidate className="grid min-w-0 grid-cols-1 gap-4">
          <DialogHeader>
            <DialogTitle>{title}</DialogTitle>
            <DialogDescription>{description}</DialogDescription>
          </DialogHeader>
          {children}
          <div className="space-y-1.5">
            <Label htmlFor={ids.reason}>Reason (for the audit trail)</Label>
            <Textarea id={ids.reason} rows={3} maxLength={500} required value={reason} onChange={(e) => onReason(e.target.value)} aria-describedby={problem ? ids.problem : undefined} />
          </div>
          {problem && (
            <Alert variant="destructive" role="alert" id={ids.problem} data-testid="on-behalf-problem">
              <AlertCircle aria-hidden="true" />
              <AlertDescription>{problem}</AlertDescription>
            </Alert>
          )}
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose} disabled={pending}>
              Go back
            </Button>
            <Button type="submit" disabled={pending}>
              {pending && <Loader2 className="animate-spin" aria-hidden="true" />}
              {submitLabel}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

/** The first message of a failed parse (the shared schema's words), for the dialog's alert. */
export const firstIssue = (error: { issues: Array<{ message: string }> }, fallback: string) => error.issues[0]?.message ?? fallback;

/**
 * What every change for the customer keeps besides its own fields: the reason, the problem shown, and
 * sending the change (toasting `done`, closing on success; a refusal shown as the server words it, else
 * `failed` with the error).
 */
export function useOnBehalfForm(planId: string, done: string, failed: string, onClose: () => void) {
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const change = useChangeForCustomer(planId, done);
  const send = (input: OnBehalfChange) => {
    setProblem(null);
    change.mutate(input, { onSuccess: onClose, onError: (error) => setProblem(serverMessageOf(error) ?? `${failed} (${error.message}).`) });
  };
  /** OnBehalfDialog's props for the reason, the problem and the change under way. */
  const dialog = { pending: change.isPending, problem, reason, onReason: setReason, onClose };
  return { reason, setProblem, send, dialog };
}
