/** Claim rates by product and reason over a date range (GET /api/admin/reports/claims; the dashboard's card). */
import type { Db } from '@nh/server/db/client';
import { claimFigures } from '@nh/server/queries/claims';
import { CLAIM_REASON_LABELS, type ClaimRates, type ClaimReason } from '@nh/shared/contracts/claims';

const DAY_MS = 86_400_000;

/** `from` and `to` are UTC days, both included. A product's rate is units claimed per unit sold in the range. */
export async function claimRates(db: Db, from: string, to: string): Promise<ClaimRates> {
  const start = new Date(`${from}T00:00:00Z`);
  const end = new Date(Date.parse(`${to}T00:00:00Z`) + DAY_MS);
  const figures = await claimFigures(db, start, end);
  const byReason = figures.byReason.map((r) => ({ reason: r.reason as ClaimReason, label: CLAIM_REASON_LABELS[r.reason as ClaimReason] ?? r.reason, claims: r.claims }));
  return {
    from,
    to,
    byProduct: figures.byProduct.map((p) => ({
      productId: p.product_id,
      productName: p.product_name,
      unitsSold: p.sold,
      unitsClaimed: p.claimed,
      rate: p.sold > 0 ? Math.round((p.claimed / p.sold) * 10_000) / 10_000 : 0,
    })),
    byReason,
    claims: byReason.reduce((sum, r) => sum + r.claims, 0),
  };
}
