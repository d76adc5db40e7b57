/** The harness's HTTP client: JSON bodies, a staff cookie, a client address (the APIs trust X-Forwarded-For behind the proxy). */
export interface CallOptions {
  method?: string;
  body?: unknown;
  cookie?: string;
  /** The client's address, as the load balancer would name it. */
  from?: string;
}

export function call(base: string, path: string, options: CallOptions = {}): Promise<Response> {
  const headers: Record<string, string> = {};
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (options.cookie) headers.cookie = options.cookie;
  if (options.from) headers['x-forwarded-for'] = options.from;
  return fetch(`${base}${path}`, {
    method: options.method ?? (options.body === undefined ? 'GET' : 'POST'),
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
}

/** The `nh.staff=…` pair a sign-in set. */
export function staffCookieOf(res: Response): string {
  const set = res.headers.getSetCookie().find((c) => c.startsWith('nh.staff='));
  if (!set) throw new Error(`no staff session cookie set (${res.status})`);
  return set.split(';')[0]!;
}
