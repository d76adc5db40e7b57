/**
 * The tokenising script (Accept.js, or the local sandbox's compatible script): loaded once from the URL
 * the payments status names; card fields go to it and only opaque data comes back.
 */
import { splitExpiration, type AcceptResponse, type PaymentsStatus } from '@nh/shared/contracts/checkout';
import type { CardForm } from './card-form';

export interface AcceptSecureData {
  authData: { clientKey: string; apiLoginID: string };
  cardData: { cardNumber: string; month: string; year: string; cardCode: string; zip?: string };
}

interface AcceptGlobal {
  dispatchData(secureData: AcceptSecureData, handler: (response: AcceptResponse) => void): void;
}

declare global {
  interface Window {
    Accept?: AcceptGlobal;
  }
}

const loads = new Map<string, Promise<void>>();

/** Adds the script tag once per URL; resolves when it has run. */
export function loadAcceptScript(url: string): Promise<void> {
  let load = loads.get(url);
  if (!load) {
    load = new Promise<void>((resolve, reject) => {
      const script = document.createElement('script');
      script.src = url;
      script.async = true;
      script.charset = 'utf-8';
      script.onload = () => resolve();
      script.onerror = () => {
        loads.delete(url);
        script.remove();
        reject(new Error('script failed to load'));
      };
      document.head.appendChild(script);
    });
    loads.set(url, load);
  }
  return load;
}

export const acceptReady = (): boolean => typeof window !== 'undefined' && typeof window.Accept?.dispatchData === 'function';

/** A tokenising failure: the provider's messages, joined. */
export class TokenizeError extends Error {}

/** What the tokeniser answers for a card: the only card data that is sent to the shop's server. */
export interface OpaqueCardData {
  dataDescriptor: string;
  dataValue: string;
}

export function tokenizeCard(secureData: AcceptSecureData): Promise<OpaqueCardData> {
  return new Promise((resolve, reject) => {
    if (!window.Accept) {
      reject(new TokenizeError('Secure payment system not ready. Please refresh the page.'));
      return;
    }
    window.Accept.dispatchData(secureData, (response) => {
      if (response.messages.resultCode === 'Ok' && response.opaqueData) resolve(response.opaqueData);
      else reject(new TokenizeError(response.messages.message.map((m) => m.text).join(' ') || 'The card could not be verified.'));
    });
  });
}

/** The typed card to the tokeniser with the shop's public keys: spaces out of the number, 'MM/YY' as month and '20YY'. */
export function tokenizeCardForm(status: PaymentsStatus, card: CardForm): Promise<OpaqueCardData> {
  const { month, year } = splitExpiration(card.expirationDate);
  return tokenizeCard({
    authData: { clientKey: status.publicClientKey ?? '', apiLoginID: status.apiLoginID ?? '' },
    cardData: { cardNumber: card.cardNumber.replace(/\s+/g, ''), month, year, cardCode: card.cardCode, zip: card.zip },
  });
}
