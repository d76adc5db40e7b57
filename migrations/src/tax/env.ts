/**
 * The tax variables, spread into the API's and the workers' config schemas (both price orders: checkout
 * and renewals), and the one rule choosing the calculator from them.
 */
import { z } from 'zod';
import { optionalString } from '../runtime/env';
import { TAX_MODES } from './calculator';

const emptyToUndefined = (v: unknown) => (v === '' ? undefined : v);

export const taxEnvShape = {
  /** flat (the spec's 8%), table (TAX_RATES_FILE) or taxjar (TaxJar where the shop has nexus, the table as fallback). */
  TAX_MODE: z.preprocess(emptyToUndefined, z.enum(TAX_MODES).default('flat')),
  /** The merchant's rates: a CSV with the columns state,zip,rate (rate a decimal fraction such as 0.0725). */
  TAX_RATES_FILE: optionalString(),
  /** Two-letter states where the shop has nexus and collects tax (taxjar mode), comma-separated. */
  TAX_NEXUS_STATES: optionalString(),
  TAXJAR_API_KEY: optionalString(),
  /** Overrides TaxJar's API URL (its sandbox, or a local stand-in in tests). */
  TAXJAR_API_URL: optionalString(),
  /** Our own limit on one TaxJar call: past it the table answers. */
  TAX_PROVIDER_TIMEOUT_MS: z.coerce.number().int().min(50).max(30_000).default(1500),
  /** Where parcels ship from (TaxJar needs the origin): state and ZIP of the warehouse. */
  TAX_SHIP_FROM_STATE: z.preprocess(emptyToUndefined, z.string().length(2).default('OR')),
  TAX_SHIP_FROM_ZIP: z.preprocess(emptyToUndefined, z.string().min(5).default('97201')),
};

export type TaxEnv = z.infer<z.ZodObject<typeof taxEnvShape>>;
