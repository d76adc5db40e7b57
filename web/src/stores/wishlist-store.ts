/**
 * Wishlist kept in the browser under local storage key `wishlist` (storefront §3): entries of id, name,
 * slug, image and price (integer cents). A small external store so every component sees one list.
 */
import { STORAGE_KEYS } from '@nh/shared/constants';
import { useCallback, useSyncExternalStore } from 'react';

export interface WishlistEntry {
  id: number;
  name: string;
  slug: string;
  image: string | null;
  price: number | null;
}

const listeners = new Set<() => void>();
let cache: { raw: string | null; entries: WishlistEntry[] } = { raw: null, entries: [] };

function isEntry(value: unknown): value is WishlistEntry {
  const v = value as Record<string, unknown> | null;
  return !!v && typeof v === 'object' && Number.isInteger(v.id) && typeof v.name === 'string' && typeof v.slug === 'string';
}

export function readWishlist(): WishlistEntry[] {
  let raw: string | null = null;
  try {
    raw = localStorage.getItem(STORAGE_KEYS.wishlist);
  } catch {
    return [];
  }
  if (raw === cache.raw) return cache.entries;
  let entries: WishlistEntry[] = [];
  try {
    const parsed: unknown = raw === null ? [] : JSON.parse(raw);
    entries = Array.isArray(parsed) ? parsed.filter(isEntry) : [];
  } catch (error) {
    console.error('Ignoring the saved wishlist: it could not be read', error);
  }
  cache = { raw, entries };
  return entries;
}

function writeWishlist(entries: WishlistEntry[]) {
  localStorage.setItem(STORAGE_KEYS.wishlist, JSON.stringify(entries));
  for (const listener of listeners) listener();
}

/** Adds the entry when absent, removes it when present; answers whether it is now in the wishlist. */
export function toggleWishlist(entry: WishlistEntry): boolean {
  const entries = readWishlist();
  const present = entries.some((e) => e.id === entry.id);
  writeWishlist(present ? entries.filter((e) => e.id !== entry.id) : [...entries, entry]);
  return !present;
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === STORAGE_KEYS.wishlist) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/** The server renders without a wishlist (one list: useSyncExternalStore needs the same one each time). */
const NONE: WishlistEntry[] = [];

export function useWishlist() {
  const entries = useSyncExternalStore(subscribe, readWishlist, () => NONE);
  const has = useCallback((id: number) => entries.some((e) => e.id === id), [entries]);
  return { entries, has, toggle: toggleWishlist };
}
