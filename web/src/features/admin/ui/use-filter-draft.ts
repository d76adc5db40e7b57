/**
 * A filter form's draft: what staff type stays in the form until Filter applies it, and only when the
 * contract finds no problem in it (its messages are shown instead); Clear empties the form and applies
 * the empty filters at once.
 */
import { useState, type FormEvent } from 'react';
import type { z } from 'zod';
import { filterProblems } from './filter-params';

export function useFilterDraft<F extends Record<K, string>, K extends keyof F & string>({
  applied,
  empty,
  keys,
  schema,
  onApply,
}: {
  applied: F;
  empty: F;
  /** The typed filters the contract checks. */
  keys: readonly K[];
  schema: z.ZodType;
  onApply: (draft: F) => void;
}) {
  const [draft, setDraft] = useState(applied);
  const [problems, setProblems] = useState<string[]>([]);
  const set = <P extends keyof F>(key: P, value: F[P]) => setDraft((current) => ({ ...current, [key]: value }));

  function submit(event: FormEvent) {
    event.preventDefault();
    const found = filterProblems(keys, schema, draft);
    setProblems(found);
    if (found.length === 0) onApply(draft);
  }

  function clear() {
    setDraft(empty);
    setProblems([]);
    onApply(empty);
  }

  return { draft, set, problems, submit, clear };
}
