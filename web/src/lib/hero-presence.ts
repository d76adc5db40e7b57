/**
 * Whether a full-bleed hero is on screen: the header only turns transparent when there is a hero
 * under it (a not-found or error view on a shop path has none, and white text would vanish).
 */
import { useEffect, useSyncExternalStore } from 'react';

let mounted = 0;
const listeners = new Set<() => void>();
const notify = () => listeners.forEach((listener) => listener());

export function useRegisterHero() {
  useEffect(() => {
    mounted += 1;
    notify();
    return () => {
      mounted -= 1;
      notify();
    };
  }, []);
}

export function useHeroPresent(): boolean {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => mounted > 0,
    () => false,
  );
}
