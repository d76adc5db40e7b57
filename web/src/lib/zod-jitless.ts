/**
 * zod 4 compiles each object schema into a fast parser with `new Function`, and probes for it with a
 * `new Function('')` when the first object schema is built. The shop's Content-Security-Policy has no
 * 'unsafe-eval', so in the browser the probe alone reports a `securitypolicyviolation` (a console error
 * and a Lighthouse best-practices finding) even though zod then falls back. Jitless mode skips the
 * probe and the compiler; our payloads are small, so the interpreted parser costs nothing noticeable.
 *
 * The flag is read when a schema is constructed, i.e. while the contract modules are evaluated: this
 * module must be the browser entry's first import (it imports nothing but zod's core).
 */
import { config } from 'zod/v4/core';

config({ jitless: true });
