/**
 * The admin credential in the browser. The API answers verify-password with an opaque admin token
 * (12 hours); the SPA keeps THAT, never the password. The promo and product screens share it in memory
 * for the session (spec §4); the order screens also keep it in localStorage under `admin_password`
 * (the spec's key) so a reload stays signed in, and re-verify it on load.
 */
import { STORAGE_KEYS } from '@nh/shared/constants';
import { useSyncExternalStore } from 'react';

let memoryToken: string | null = null;
const listeners = new Set<() => void>();
const notify = () => listeners.forEach((l) => l());

export function setAdminToken(token: string | null): void {
  memoryToken = token;
  notify();
}

export const getAdminToken = (): string | null => memoryToken;

/** The shared in-memory admin token (null until a password has been verified this session). */
export function useAdminToken(): string | null {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => memoryToken,
  );
}

export function readStoredToken(): string | null {
  try {
    return localStorage.getItem(STORAGE_KEYS.adminPassword);
  } catch {
    return null;
  }
}

export function storeToken(token: string): void {
  try {
    localStorage.setItem(STORAGE_KEYS.adminPassword, token);
  } catch {
    // Private mode or full storage: the session still works from memory.
  }
}

export function forgetStoredToken(): void {
  try {
    localStorage.removeItem(STORAGE_KEYS.adminPassword);
  } catch {
    // nothing stored
  }
}
