/**
 * What a server-rendered page hands to the browser so the first render there equals the server's: the
 * query cache (TanStack's dehydrated state) and the router's loader state, as one JSON data block
 * (`<script type="application/json">`: data, not a script, so the CSP has nothing to allow). `<` is
 * escaped, so no text in the data (a product named `</script>`) can end the block.
 */
import { dehydrate, hydrate, type DehydratedState, type QueryClient } from '@tanstack/react-query';
import type { HydrationState } from 'react-router-dom';
import { ApiError } from './query-client';

export const SERVER_STATE_ID = 'server-state';

export interface ServerState {
  queries: DehydratedState;
  router: HydrationState;
}

/** A query's error as JSON (an Error's message is not an enumerable property). */
interface SentError {
  message: string;
  status?: number;
  body?: string;
}

const sendError = (error: unknown): SentError =>
  error instanceof ApiError
    ? { message: error.message, status: error.status, body: error.body }
    : { message: error instanceof Error ? error.message : String(error) };
const reviveError = (sent: SentError): Error =>
  sent.status === undefined ? new Error(sent.message) : new ApiError(sent.status, sent.message, sent.body ?? '');

/** The data block's text: answered and failed queries (a missing product's 404 is what its page shows). */
export function serverStateJson(queryClient: QueryClient, router: HydrationState): string {
  const queries = dehydrate(queryClient, {
    shouldDehydrateQuery: (query) => query.state.status !== 'pending',
    shouldRedactErrors: () => false,
  });
  for (const query of queries.queries) {
    // The JSON form of the error: `hydrateQueries` turns it back into one.
    if (query.state.error !== null)
      query.state = { ...query.state, error: sendError(query.state.error) as unknown as Error, fetchFailureReason: null };
  }
  const state: ServerState = { queries, router };
  return JSON.stringify(state).replace(/</g, '\\u003c');
}

/** The server's state in this document, or null for a page the browser renders alone. */
export function readServerState(doc: Document): ServerState | null {
  const text = doc.getElementById(SERVER_STATE_ID)?.textContent;
  if (!text) return null;
  try {
    return JSON.parse(text) as ServerState;
  } catch (error) {
    console.error('Ignoring the server-rendered state: it could not be read', error);
    return null;
  }
}

/**
 * Puts the server's answers into the browser's cache. A failed query keeps its error and is not asked
 * again when its screen mounts (that would turn the rendered not-found page into a skeleton); a reload
 * asks again.
 */
export function hydrateQueries(queryClient: QueryClient, queries: DehydratedState): void {
  for (const query of queries.queries) {
    if (query.state.status !== 'error' || query.state.error === null) continue;
    query.state = { ...query.state, error: reviveError(query.state.error) };
    queryClient.setQueryDefaults(query.queryKey, { retryOnMount: false });
  }
  hydrate(queryClient, queries);
}
