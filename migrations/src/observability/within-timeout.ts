/**
 * The value of `read()`, or `fallback` when it fails or takes longer than `ms`: a scrape, a health check or
 * a back-office page must answer even while Redis or PostgreSQL does not.
 */
export async function withinTimeout<T>(read: () => Promise<T>, ms: number, fallback: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(fallback), ms);
    timer.unref();
  });
  try {
    return await Promise.race([read().catch(() => fallback), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
