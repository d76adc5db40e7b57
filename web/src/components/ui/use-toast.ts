/**
 * Toast store (the shadcn pattern): a tiny module-level store so any code can call `toast(...)`.
 * Limits of storefront §9: at most one toast shown; a dismissed toast is removed after 1,000,000 ms
 * (Radix has already animated it out, the delay only frees its memory).
 */
import { TOAST } from '@nh/shared/constants';
import { useSyncExternalStore, type ReactNode } from 'react';

export type ToastVariant = 'default' | 'destructive';

export interface ToastInput {
  title: ReactNode;
  description?: ReactNode;
  variant?: ToastVariant;
}

export interface ToasterToast extends ToastInput {
  id: string;
  open: boolean;
}

interface State {
  toasts: ToasterToast[];
}

type Action = { type: 'ADD'; toast: ToasterToast } | { type: 'DISMISS'; toastId?: string } | { type: 'REMOVE'; toastId?: string };

let counter = 0;
const nextId = () => String((counter = (counter + 1) % Number.MAX_SAFE_INTEGER));

const removeTimeouts = new Map<string, ReturnType<typeof setTimeout>>();

function scheduleRemoval(toastId: string) {
  if (removeTimeouts.has(toastId)) return;
  removeTimeouts.set(
    toastId,
    setTimeout(() => {
      removeTimeouts.delete(toastId);
      dispatch({ type: 'REMOVE', toastId });
    }, TOAST.removeDelayMs),
  );
}

export function toastReducer(state: State, action: Action): State {
  switch (action.type) {
    case 'ADD':
      return { toasts: [action.toast, ...state.toasts].slice(0, TOAST.limit) };
    case 'DISMISS':
      return {
        toasts: state.toasts.map((t) => (action.toastId === undefined || t.id === action.toastId ? { ...t, open: false } : t)),
      };
    case 'REMOVE':
      return { toasts: action.toastId === undefined ? [] : state.toasts.filter((t) => t.id !== action.toastId) };
  }
}

const listeners = new Set<() => void>();
let memoryState: State = { toasts: [] };

function dispatch(action: Action) {
  memoryState = toastReducer(memoryState, action);
  if (action.type === 'DISMISS') {
    for (const t of memoryState.toasts) if (!t.open) scheduleRemoval(t.id);
  }
  for (const listener of listeners) listener();
}

export function dismissToast(toastId?: string) {
  dispatch({ type: 'DISMISS', toastId });
}

/** Shows a toast: `toast({ title, description?, variant? })`. */
export function toast(input: ToastInput) {
  const id = nextId();
  dispatch({ type: 'ADD', toast: { ...input, id, open: true } });
  return { id, dismiss: () => dismissToast(id) };
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => void listeners.delete(listener);
};
const snapshot = () => memoryState;

/**
 * The toast store in a component. Through `useSyncExternalStore`, not a state copy subscribed in an
 * effect: a toast raised between a toaster's render and its effect (a toaster mounting as the toast
 * comes, the lazy one included) would otherwise be missed until the next toast.
 */
export function useToast() {
  const state = useSyncExternalStore(subscribe, snapshot, snapshot);
  return { ...state, toast, dismiss: dismissToast };
}
