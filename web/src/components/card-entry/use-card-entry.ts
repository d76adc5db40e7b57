/**
 * Card entry, the one way the shop takes a card (checkout and "Resume with a new card"): the payments
 * status, the tokenising script it names, and the tokeniser bound to the shop's public keys. The card
 * is typed into `CardDetailsFields`, checked with `cardFormSchema`, and only the opaque data that
 * `tokenize` answers ever leaves the browser.
 */
import type { PaymentsStatus } from '@nh/shared/contracts/checkout';
import { useCallback } from 'react';
import { TokenizeError, tokenizeCardForm, type OpaqueCardData } from './accept';
import type { CardForm } from './card-form';
import { usePaymentsStatus } from './payments-status';
import { useAcceptScript, type AcceptScriptState } from './use-accept-script';

export interface CardEntry {
  /** The payments status; undefined until it has loaded (or when it failed). */
  status: PaymentsStatus | undefined;
  /** Payments can be taken (the status says configured). */
  configured: boolean;
  /** Where the tokenising script stands; 'loading' keeps the pay button disabled. */
  script: AcceptScriptState;
  /** The typed card to the tokeniser; rejects with a TokenizeError carrying the provider's messages. */
  tokenize: (card: CardForm) => Promise<OpaqueCardData>;
}

export function useCardEntry(): CardEntry {
  const status = usePaymentsStatus().data ?? undefined;
  const configured = status?.configured === true;
  const script = useAcceptScript(configured ? status.acceptJsUrl : null);
  const tokenize = useCallback(
    (card: CardForm) =>
      status ? tokenizeCardForm(status, card) : Promise.reject(new TokenizeError('Secure payment system not ready. Please refresh the page.')),
    [status],
  );
  return { status, configured, script, tokenize };
}
