import { QueryClient, type QueryFunction } from '@tanstack/react-query';

/** A non-OK answer: message is "{status}: {body text or status text}" (storefront spec §8). */
/** A response's JSON body as the caller's type (the contracts' schemas checked it on the server). */
export const readJson = async <T>(res: Response): Promise<T> => (await res.json()) as T;

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body: string,
  ) {
    super(message);
  }
  /** The `message` field of a JSON error body, when there is one. */
  get serverMessage(): string | undefined {
    try {
      const parsed = JSON.parse(this.body) as { message?: unknown };
      return typeof parsed.message === 'string' ? parsed.message : undefined;
    } catch {
      return undefined;
    }
  }
}

/** The server's message of a failed call (the `message` of its JSON error body), if it sent one. */
export function serverMessageOf(error: unknown): string | undefined {
  return error instanceof ApiError ? error.serverMessage : undefined;
}

export async function throwIfResNotOk(res: Response): Promise<void> {
  if (res.ok) return;
  const text = (await res.text()) || res.statusText;
  throw new ApiError(res.status, `${res.status}: ${text}`, text);
}

/** Every request carries cookies; a body is sent as JSON with a JSON content type. */
export async function apiRequest(method: string, url: string, data?: unknown, headers: Record<string, string> = {}): Promise<Response> {
  const res = await fetch(url, {
    method,
    headers: data === undefined ? headers : { 'Content-Type': 'application/json', ...headers },
    body: data === undefined ? undefined : JSON.stringify(data),
    credentials: 'include',
  });
  await throwIfResNotOk(res);
  return res;
}

/**
 * Joins string/number key parts with '/', object parts become query parameters (null/undefined skipped).
 * The first part is the endpoint's path as written; each later part is one path segment, encoded, so a
 * slug from the address bar (the router decodes `%2F` back to `/`) cannot climb to another endpoint.
 */
export function urlFromQueryKey(queryKey: readonly unknown[]): string {
  const parts: string[] = [];
  const params = new URLSearchParams();
  for (const part of queryKey) {
    if (typeof part === 'string' || typeof part === 'number') parts.push(parts.length === 0 ? String(part) : encodeURIComponent(String(part)));
    else if (part && typeof part === 'object') {
      for (const [key, value] of Object.entries(part)) if (value !== null && value !== undefined) params.append(key, String(value));
    }
  }
  const query = params.toString();
  return parts.join('/') + (query ? `?${query}` : '');
}

type UnauthorizedBehavior = 'returnNull' | 'throw';

/**
 * How a query reaches the API: in the browser `fetch` with the shopper's cookies; on the server (the
 * page render) a fetch to the API itself, without the shopper's cookies (public data only).
 */
export type ApiFetch = (url: string) => Promise<Response>;

const browserFetch: ApiFetch = (url) => fetch(url, { credentials: 'include' });
const fetchers = new WeakMap<QueryClient, ApiFetch>();

/** The fetch of the client a query runs in (for query functions of their own, such as an article's). */
export function apiFetchOf(client: QueryClient): ApiFetch {
  return fetchers.get(client) ?? browserFetch;
}

export function getQueryFn<T>({ on401 }: { on401: UnauthorizedBehavior }): QueryFunction<T | null> {
  return async ({ queryKey, client }) => {
    const res = await apiFetchOf(client)(urlFromQueryKey(queryKey));
    if (on401 === 'returnNull' && res.status === 401) return null;
    await throwIfResNotOk(res);
    return (await res.json()) as T;
  };
}

export function createQueryClient(apiFetch: ApiFetch = browserFetch): QueryClient {
  const client = new QueryClient({
    defaultOptions: {
      queries: {
        queryFn: getQueryFn({ on401: 'throw' }),
        refetchInterval: false,
        refetchOnWindowFocus: false,
        staleTime: Infinity,
        retry: false,
      },
      mutations: { retry: false },
    },
  });
  fetchers.set(client, apiFetch);
  return client;
}
