import type { Logger } from '../observability/logger';
import type { TaxCalculator } from './calculator';
import type { TaxEnv } from './env';
import { flatTax } from './flat';

export * from './calculator';
export { taxEnvShape, type TaxEnv } from './env';
export { flatTax } from './flat';
export { priceForDestination, taxPricing, taxLinesOf, type TaxedPricing } from './price';

/** The calculator the configuration names (TAX_MODE). */
export function createTaxCalculator(env: TaxEnv, deps: { log: Logger }): TaxCalculator {
  void deps;
  switch (env.TAX_MODE) {
    default:
      return flatTax();
  }
}
