/**
 * Impact figure display (storefront §9): "X.XM+" at 1,000,000 and over, "XK+" at 1,000 and over,
 * otherwise the plain number. Rounds down so a figure is never overstated (1,250,000 → "1.2M+").
 */
export function formatImpactNumber(value: number): string {
  if (!Number.isFinite(value)) return '0';
  const n = Math.max(0, Math.floor(value));
  if (n >= 1_000_000) return `${(Math.floor(n / 100_000) / 10).toFixed(1)}M+`;
  if (n >= 1_000) return `${Math.floor(n / 1_000)}K+`;
  return String(n);
}
