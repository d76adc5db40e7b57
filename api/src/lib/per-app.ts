import type { AppContext } from './context';

/**
 * One value per running app, made on first use. Not a module-level singleton: tests start several
 * apps in one process, each on its own AppContext (own config, database and Redis), and a value made
 * for one must never serve another.
 */
export function perApp<T>(create: (ctx: AppContext) => T): (ctx: AppContext) => T {
  const values = new WeakMap<AppContext, T>();
  return (ctx) => {
    let value = values.get(ctx);
    if (value === undefined) {
      value = create(ctx);
      values.set(ctx, value);
    }
    return value;
  };
}
