/** The back office's list filters as they travel in the URL and to the API, and the contract's word on what was typed. */
import type { z } from 'zod';

/** The filters given a value (trimmed), in the order of `keys`. */
export function filterSearch<K extends string>(keys: readonly K[], filters: Record<K, string>): URLSearchParams {
  const params = new URLSearchParams();
  for (const key of keys) if (filters[key].trim()) params.set(key, filters[key].trim());
  return params;
}

/** The screen's URL: the filters given a value and the page's offset (left out on the first page). */
export function filterParams<K extends string>(keys: readonly K[], filters: Record<K, string> & { offset: number }): URLSearchParams {
  const params = filterSearch(keys, filters);
  if (filters.offset > 0) params.set('offset', String(filters.offset));
  return params;
}

/** The API's query: the filters given a value, then the page (limit and offset). */
export function pagedSearch<K extends string>(keys: readonly K[], filters: Record<K, string> & { offset: number }, pageSize: number): string {
  const params = filterSearch(keys, filters);
  params.set('limit', String(pageSize));
  params.set('offset', String(filters.offset));
  return params.toString();
}

/** The contract's messages for what was typed (only the filters given a value are checked), each once. */
export function filterProblems<K extends string>(keys: readonly K[], schema: z.ZodType, filters: Record<K, string>): string[] {
  const present = Object.fromEntries(keys.filter((key) => filters[key].trim()).map((key) => [key, filters[key].trim()]));
  const checked = schema.safeParse(present);
  return checked.success ? [] : [...new Set(checked.error.issues.map((issue) => issue.message))];
}
