/**
 * zod 4 compiles each object schema into a fast parser with `new Function`, and probes for it with a
 * `new Function('')` when the first object schema is built. The shop's Content-Security-Policy has no
 * 'unsafe-eval', so in the browser the probe alone reports a `securitypolicyviolation` (a console error
 * and a Lighthouse best-practices finding) even though zod then falls back. Jitless mode skips the
 * probe and the compiler; our payloads are small, so the interpreted parser costs nothing noticeable.
 *
 * The flag is read when a schema is constructed, i.e. while the contract modules are evaluated: this
 * module must be the browser entry's first import.
 *
 * It imports nothing from zod: `config()` lives in zod's core, which would put ~9 KB gzipped of zod
 * into the entry chunk that every page loads (the home page itself builds no schema). zod keeps its
 * configuration on `globalThis.__zod_globalConfig` (so that every copy of zod in a page shares it) and
 * adopts an object already there when its core loads; `config({ jitless: true })` is an `Object.assign`
 * onto that same object. Tested in zod-jitless.test.ts against zod's own `config()`.
 */
const global = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
global.__zod_globalConfig ??= {};
global.__zod_globalConfig.jitless = true;

export {};
