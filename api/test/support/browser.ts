/**
 * A browser's cookie jar for API tests: every cookie the API sets is kept and sent back (the session,
 * a guest's order grants), and one it clears is dropped, as a browser does. Redirects are not followed.
 */
export class Browser {
  private readonly cookies = new Map<string, string>();

  constructor(
    private readonly baseUrl: () => string,
    private readonly headers: Record<string, string> = {},
  ) {}

  /** The Cookie header this browser sends, or undefined when it holds none. */
  get cookie(): string | undefined {
    return this.cookies.size ? [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ') : undefined;
  }

  async call(path: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}): Promise<Response> {
    const cookie = this.cookie;
    const res = await fetch(this.baseUrl() + path, {
      method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
      headers: {
        ...this.headers,
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(cookie ? { cookie } : {}),
        ...init.headers,
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      redirect: 'manual',
    });
    for (const set of res.headers.getSetCookie()) {
      const [pair, ...attributes] = set.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      const cleared = value === '' || attributes.some((a) => /^\s*max-age=0\s*$/i.test(a) || /^\s*expires=.*1970/i.test(a));
      if (cleared) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return res;
  }
}
