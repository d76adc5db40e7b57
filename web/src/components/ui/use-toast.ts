/**
 * Toast store (the shadcn pattern): a tiny module-level store so any code can call `toast(...)`.
 * Limits of storefront §9: at most one toast shown; a dismissed toast is removed after 1,000,000 ms
 * (Radix has already animated it out, the delay only frees its memory).
 */
import { TOAST } from '@nh/shared/constants';
import { useEffect, useState, type ReactNode } from 'react';

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

const listeners = new Set<(state: State) => void>();
let memoryState: State = { toasts: [] };

function dispatch(action: Action) {
  memoryState = toastReducer(memoryState, action);
  if (action.type === 'DISMISS') {
    for (const t of memoryState.toasts) if (!t.open) scheduleRemoval(t.id);
  }
  for (const listener of listeners) listener(memoryState);
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

export function useToast() {
  const [state, setState] = useState<State>(memoryState);
  useEffect(() => {
    listeners.add(setState);
    return () => {
      listeners.delete(setState);
    };
  }, []);
  return { ...state, toast, dismiss: dismissToast };
}
