/**
 * The order screens' session (spec §4): the token kept in localStorage under `admin_password` is
 * verified on load and removed if verification fails.
 */
import { useEffect, useState } from 'react';
import { verifyAdminPassword } from './api';
import { forgetStoredToken, getAdminToken, readStoredToken, setAdminToken, storeToken, useAdminToken } from './admin-session';

export type OrderSession = { state: 'checking' } | { state: 'locked' } | { state: 'unlocked'; token: string };

export function useOrderSession(): { session: OrderSession; unlock: (token: string) => void } {
  const memory = useAdminToken();
  const [checked, setChecked] = useState(() => getAdminToken() !== null || readStoredToken() === null);

  // A token unlocked on the promo/product screens is kept too once the order screens are used (spec §4).
  useEffect(() => {
    if (memory && readStoredToken() !== memory) storeToken(memory);
  }, [memory]);

  useEffect(() => {
    if (checked) return;
    const stored = readStoredToken();
    let cancelled = false;
    void (async () => {
      const answer = stored ? await verifyAdminPassword(stored).catch(() => false as const) : false;
      if (cancelled) return;
      if (answer && answer.authenticated) setAdminToken(stored);
      else forgetStoredToken();
      setChecked(true);
    })();
    return () => {
      cancelled = true;
    };
  }, [checked]);

  const unlock = (token: string) => {
    storeToken(token);
    setAdminToken(token);
  };
  const session: OrderSession = !checked ? { state: 'checking' } : memory ? { state: 'unlocked', token: memory } : { state: 'locked' };
  return { session, unlock };
}
