/** The back office's list filters as they travel in the URL, and the contract's word on what was typed. */
import type { z } from 'zod';

/** The typed filters given a value (trimmed) and the page's offset, as the URL's query. */
export function filterParams<K extends string>(keys: readonly K[], filters: Record<K, string> & { offset: number }): URLSearchParams {
  const params = new URLSearchParams();
  for (const key of keys) if (filters[key].trim()) params.set(key, filters[key].trim());
  if (filters.offset > 0) params.set('offset', String(filters.offset));
  return params;
}

/** The contract's messages for what was typed (only the filters given a value are checked), each once. */
export function filterProblems<K extends string>(keys: readonly K[], schema: z.ZodType, filters: Record<K, string>): string[] {
  const present = Object.fromEntries(keys.filter((key) => filters[key].trim()).map((key) => [key, filters[key].trim()]));
  const checked = schema.safeParse(present);
  return checked.success ? [] : [...new Set(checked.error.issues.map((issue) => issue.message))];
}
