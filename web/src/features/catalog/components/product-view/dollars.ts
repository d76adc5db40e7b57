/** Whole dollars without cents ("$50"), else two decimals ("$49.99"): figures in running text. */
export const dollars = (cents: number) => `$${(cents / 100).toFixed(cents % 100 === 0 ? 0 : 2)}`;
