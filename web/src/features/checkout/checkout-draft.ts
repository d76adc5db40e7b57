/**
 * Never lose a typed checkout form (issue 22): the contact, address and Subscribe & Save choices are
 * kept in this tab's sessionStorage as they are typed and put back when the page opens again (a
 * reload, a trip to sign in, the back button). Card fields are never written anywhere. A signed-in
 * shopper's name, email and newest order's address fill the fields still empty; nothing typed is
 * overwritten. The draft goes once the order is placed.
 */
import type { CheckoutForm } from '@nh/shared/contracts/checkout';
import type { AuthUser } from '@nh/shared/contracts/auth';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import { fetchLastAddress } from './api';

export const CHECKOUT_DRAFT_KEY = 'nh.checkout-draft';
const TEXT_FIELDS = ['firstName', 'lastName', 'email', 'address', 'city', 'state', 'zip'] as const;
type Draft = Partial<Pick<CheckoutForm, (typeof TEXT_FIELDS)[number] | 'subscribeAndSave' | 'intervalCount'>>;

/** What a draft may hold: the text fields, the Subscribe & Save tick and cadence; never a card field. */
export function toDraft(values: Partial<CheckoutForm>): Draft {
  const draft: Draft = {};
  for (const name of TEXT_FIELDS) if (typeof values[name] === 'string') draft[name] = values[name];
  if (typeof values.subscribeAndSave === 'boolean') draft.subscribeAndSave = values.subscribeAndSave;
  if (typeof values.intervalCount === 'number') draft.intervalCount = values.intervalCount;
  return draft;
}

export function readDraft(storage: Storage | undefined = globalThis.sessionStorage): Draft {
  try {
    const raw = storage?.getItem(CHECKOUT_DRAFT_KEY);
    return raw ? toDraft(JSON.parse(raw) as Partial<CheckoutForm>) : {};
  } catch {
    return {};
  }
}

export function clearCheckoutDraft(storage: Storage | undefined = globalThis.sessionStorage): void {
  try {
    storage?.removeItem(CHECKOUT_DRAFT_KEY);
  } catch {
    // storage refused (private mode): nothing was kept
  }
}

/** Keeps the form's draft and fills in what the shop knows of a signed-in shopper. */
export function useCheckoutDraft(form: UseFormReturn<CheckoutForm>, user: AuthUser | null): void {
  const restored = useRef(false);
  useEffect(() => {
    if (restored.current) return;
    restored.current = true;
    const draft = readDraft();
    for (const [name, value] of Object.entries(draft)) form.setValue(name as keyof Draft, value);
    const subscription = form.watch((values) => {
      try {
        globalThis.sessionStorage?.setItem(CHECKOUT_DRAFT_KEY, JSON.stringify(toDraft(values)));
      } catch {
        // storage full or refused: the form still works
      }
    });
    return () => subscription.unsubscribe();
  }, [form]);

  const lastAddress = useQuery({ queryKey: ['checkout-last-address', user?.id], queryFn: fetchLastAddress, enabled: user !== null, retry: false, staleTime: Infinity });
  useEffect(() => {
    if (!user) return;
    const fill = (name: (typeof TEXT_FIELDS)[number], value: string | null | undefined) => {
      if (value && !form.getValues(name)) form.setValue(name, value);
    };
    fill('firstName', user.firstName);
    fill('lastName', user.lastName);
    fill('email', user.email);
    const a = lastAddress.data;
    if (a && !form.getValues('address')) {
      fill('address', a.address);
      fill('city', a.city);
      fill('state', a.state);
      fill('zip', a.zip);
    }
  }, [user, lastAddress.data, form]);
}
