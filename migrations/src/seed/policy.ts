/**
 * Whether the release step loads the demo catalogue (products, journal, reviews and the demo promo
 * codes WELCOME10, SAVE5, SPRING20). Never into a production database unless the operator asks for it
 * with SEED_DEMO_DATA=true (a staging or demo shop); outside production unless SEED_DEMO_DATA=false.
 */
export function demoSeedDecision(env: NodeJS.ProcessEnv): { seed: boolean; reason: string } {
  const flag = env.SEED_DEMO_DATA?.trim().toLowerCase();
  if (flag === 'true' || flag === '1') return { seed: true, reason: 'SEED_DEMO_DATA=true' };
  if (flag === 'false' || flag === '0') return { seed: false, reason: 'SEED_DEMO_DATA=false: demo data not loaded' };
  if (env.NODE_ENV === 'production') {
    return { seed: false, reason: 'NODE_ENV=production: demo catalogue and promo codes not loaded (set SEED_DEMO_DATA=true for a demo shop)' };
  }
  return { seed: true, reason: `NODE_ENV=${env.NODE_ENV ?? 'development'}` };
}
