import { zodResolver } from '@hookform/resolvers/zod';
import { formatPrice, LIMITS } from '@nh/shared';
import type { SubscriptionView } from '@nh/shared/contracts/subscriptions';
import { AlertCircle, Loader2 } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { TokenizeError, type OpaqueCardData } from '@/components/card-entry/accept';
import { CardDetailsFields } from '@/components/card-entry/card-details-fields';
import { cardFormSchema, emptyCardForm, type CardForm } from '@/components/card-entry/card-form';
import { PaymentAlerts } from '@/components/card-entry/payment-alerts';
import { useCardEntry } from '@/components/card-entry/use-card-entry';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { LabelledField } from '@/components/ui/labelled-field';
import { useResumeSubscription } from '../api';

interface Props {
  /** The paused plan being resumed; null closes the dialog. */
  subscription: SubscriptionView | null;
  onDismiss: () => void;
  /** The plan is active again (already toasted, and the list refreshed). */
  onResumed: (subscription: SubscriptionView) => void;
  /** Where focus goes once the dialog has closed (the trigger may have moved to Active). */
  onClosed: () => void;
}

/**
 * "Resume with a new card": the card is typed here and tokenised in the browser exactly as at checkout
 * (same fields, rules and script); only the opaque data goes to POST /api/subscriptions/{id}/resume.
 * A failed call keeps the dialog open, so another card can be tried.
 */
export function ResumeSubscriptionDialog({ subscription, onDismiss, onResumed, onClosed }: Props) {
  const [sending, setSending] = useState(false);
  return (
    <Dialog open={subscription !== null} onOpenChange={(open) => !open && !sending && onDismiss()}>
      <DialogContent
        hideClose={sending}
        onCloseAutoFocus={(event) => {
          event.preventDefault();
          onClosed();
        }}
      >
        <DialogHeader>
          <DialogTitle>Resume with a new card</DialogTitle>
          <DialogDescription>
            Subscription #{subscription?.id.slice(0, LIMITS.orderIdDisplayLength)} is paused because its last renewal could not be paid. Once the new
            card is saved the plan is active again, that delivery ({subscription ? formatPrice(subscription.amount) : ''}) is charged to it right away, and
            monthly deliveries carry on from there.
          </DialogDescription>
        </DialogHeader>
        {/* Mounted only while open: each opening starts with an empty form. */}
        {subscription && <ResumeCardForm subscription={subscription} onSendingChange={setSending} onCancel={onDismiss} onResumed={onResumed} />}
      </DialogContent>
    </Dialog>
  );
}

interface FormProps {
  subscription: SubscriptionView;
  onSendingChange: (sending: boolean) => void;
  onCancel: () => void;
  onResumed: (subscription: SubscriptionView) => void;
}

function ResumeCardForm({ subscription, onSendingChange, onCancel, onResumed }: FormProps) {
  const { status, configured, script, tokenize } = useCardEntry();
  const resume = useResumeSubscription();
  const { register, handleSubmit, setError, formState } = useForm<CardForm>({ resolver: zodResolver(cardFormSchema), defaultValues: emptyCardForm });
  const { errors, isSubmitting } = formState;

  // Sending covers tokenising and the call; the dialog cannot be closed meanwhile.
  useEffect(() => {
    onSendingChange(isSubmitting);
    return () => onSendingChange(false);
  }, [isSubmitting, onSendingChange]);

  const submit = async (card: CardForm) => {
    if (!configured) return;
    let opaque: OpaqueCardData;
    try {
      opaque = await tokenize(card);
    } catch (error) {
      // The tokeniser's own texts (E_WC_xx) belong to the card fields: shown on the form, not toasted.
      setError('root.tokenizer', { message: error instanceof TokenizeError ? error.message : 'The card could not be verified.' });
      return;
    }
    try {
      await resume.mutateAsync({ id: subscription.id, card: opaque });
    } catch {
      return; // toasted by the mutation; the dialog stays open for another card
    }
    onResumed(subscription);
  };

  const field = (name: keyof CardForm) => ({ ...register(name), error: errors[name] });
  const tokenizerError = errors.root?.tokenizer?.message;

  return (
    <form onSubmit={handleSubmit(submit)} noValidate aria-label="New card" className="space-y-4">
      <PaymentAlerts status={status} />
      {tokenizerError && (
        <Alert variant="destructive" data-testid="tokenizer-error">
          <AlertCircle aria-hidden="true" />
          <AlertDescription>{tokenizerError}</AlertDescription>
        </Alert>
      )}
      <div className="grid gap-4 sm:grid-cols-2">
        <CardDetailsFields field={field} />
        <LabelledField label="ZIP Code" autoComplete="postal-code" inputMode="numeric" {...field('zip')} />
      </div>
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onCancel} disabled={isSubmitting}>
          Keep Paused
        </Button>
        <Button type="submit" disabled={isSubmitting || !configured || script === 'loading'}>
          {isSubmitting ? (
            <>
              <Loader2 className="animate-spin" aria-hidden="true" /> Processing...
            </>
          ) : (
            'Resume Subscription'
          )}
        </Button>
      </DialogFooter>
    </form>
  );
}
