import { zodResolver } from '@hookform/resolvers/zod';
import { AlertCircle, Loader2 } from 'lucide-react';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { TokenizeError, type OpaqueCardData } from '@/components/card-entry/accept';
import { CardDetailsFields } from '@/components/card-entry/card-details-fields';
import { cardFormSchema, emptyCardForm, type CardForm } from '@/components/card-entry/card-form';
import { PaymentAlerts } from '@/components/card-entry/payment-alerts';
import { useCardEntry } from '@/components/card-entry/use-card-entry';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { DialogFooter } from '@/components/ui/dialog';
import { LabelledField } from '@/components/ui/labelled-field';

interface Props {
  submitLabel: string;
  cancelLabel: string;
  onSendingChange: (sending: boolean) => void;
  onCancel: () => void;
  /** Sends the tokenised card; answers whether it was accepted (a refusal is toasted by the caller's mutation). */
  send: (card: OpaqueCardData) => Promise<boolean>;
}

/**
 * A new card in a dialog, typed and tokenised in the browser exactly as at checkout (same fields, rules
 * and script): only the opaque data is sent. A refused card keeps the form, so another can be tried.
 */
export function NewCardForm({ submitLabel, cancelLabel, onSendingChange, onCancel, send }: Props) {
  const { status, configured, script, tokenize } = useCardEntry();
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
    await send(opaque);
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
          {cancelLabel}
        </Button>
        <Button type="submit" disabled={isSubmitting || !configured || script === 'loading'}>
          {isSubmitting ? (
            <>
              <Loader2 className="animate-spin" aria-hidden="true" /> Processing...
            </>
          ) : (
            submitLabel
          )}
        </Button>
      </DialogFooter>
    </form>
  );
}
