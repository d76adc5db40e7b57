import type { Request } from 'express';

/** The value of cookie `name` in the request's Cookie header (no cookie parser is mounted), or null. */
export function cookieOf(req: Request, name: string): string | null {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}
