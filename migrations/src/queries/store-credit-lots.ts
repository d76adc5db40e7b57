/**
 * Store credit's lots (issue 23; docs/decisions/store-credit.md, "Expiry"): which credit a balance is
 * made of, replayed from the ledger, so the expiry job knows how much of an expiring grant is left.
 *
 * - A grant or a refund to credit is a lot: a grant's with its `expires_at`, a refund's never expiring.
 * - A spend takes from the lots that expire first (then the oldest; never-expiring lots last): the
 *   shopper keeps the credit that lasts longest.
 * - A reverse gives a spend back to the lots it came from (its order's spends), keeping their expiry.
 * - An expiry takes from the lot its reference names (`expire:<lot entry id>:<cents expired before>`).
 *
 * The lots' remainders always add up to the balance (each movement moves exactly its amount), so an
 * expiry of a lot's remainder can never take the balance below zero.
 */
import type { Cents } from '@nh/shared/money';
import type { StoreCreditKind } from './store-credit';

export interface LedgerMovement {
  id: number;
  kind: StoreCreditKind;
  /** Signed cents, as the ledger keeps them. */
  amount: Cents;
  orderId: string | null;
  reference: string | null;
  expiresAt: Date | null;
}

export interface CreditLot {
  /** The grant's or refund's ledger row. */
  entryId: number;
  expiresAt: Date | null;
  remaining: Cents;
  /** Cents of it expired so far. */
  expired: Cents;
}

/** The reference of the expiry of a lot's remainder (once per lot and amount expired before). */
export const expiryReference = (lot: Pick<CreditLot, 'entryId' | 'expired'>): string => `expire:${lot.entryId}:${lot.expired}`;

const EXPIRY_REFERENCE = /^expire:(\d+):\d+$/;

/** Lots in spending order: the first to expire first, then the oldest; never-expiring lots last. */
const spendingOrder = (a: CreditLot, b: CreditLot): number => {
  if (a.expiresAt && b.expiresAt) return a.expiresAt.getTime() - b.expiresAt.getTime() || a.entryId - b.entryId;
  if (a.expiresAt) return -1;
  if (b.expiresAt) return 1;
  return a.entryId - b.entryId;
};

/** The account's lots after its movements (oldest first), with what is left of each. */
export function replayCreditLots(movements: readonly LedgerMovement[]): CreditLot[] {
  const lots: CreditLot[] = [];
  const byId = new Map<number, CreditLot>();
  /** What each order's spends took, lot by lot, for its reverse. */
  const taken = new Map<string, Array<{ lot: CreditLot; cents: Cents }>>();

  const take = (cents: Cents, from: CreditLot[], orderId: string | null) => {
    let left = cents;
    for (const lot of from) {
      if (left <= 0) break;
      const part = Math.min(lot.remaining, left);
      if (part <= 0) continue;
      lot.remaining -= part;
      left -= part;
      if (orderId) taken.set(orderId, [...(taken.get(orderId) ?? []), { lot, cents: part }]);
    }
    return cents - left;
  };
  const addLot = (m: LedgerMovement, cents: Cents, expiresAt: Date | null) => {
    const lot: CreditLot = { entryId: m.id, expiresAt, remaining: cents, expired: 0 };
    lots.push(lot);
    byId.set(m.id, lot);
  };

  for (const m of [...movements].sort((a, b) => a.id - b.id)) {
    switch (m.kind) {
      case 'grant':
        addLot(m, m.amount, m.expiresAt);
        break;
      case 'refund':
        addLot(m, m.amount, null);
        break;
      case 'spend':
        take(-m.amount, [...lots].sort(spendingOrder), m.orderId);
        break;
      case 'reverse': {
        let left = m.amount;
        for (const part of (m.orderId ? taken.get(m.orderId) : undefined) ?? []) {
          const back = Math.min(part.cents, left);
          part.lot.remaining += back;
          part.cents -= back;
          left -= back;
        }
        // A reverse with nothing recorded to give back to (never: a reverse follows its spend) is a lot of its own.
        if (left > 0) addLot(m, left, null);
        break;
      }
      case 'expire': {
        const lotId = EXPIRY_REFERENCE.exec(m.reference ?? '')?.[1];
        const lot = lotId ? byId.get(Number(lotId)) : undefined;
        const cents = -m.amount;
        const done = lot ? take(cents, [lot], null) : 0;
        if (lot) lot.expired += done;
        take(cents - done, [...lots].sort(spendingOrder), null);
        break;
      }
    }
  }
  return lots;
}

/** The lots whose expiry has come (at `now`) with something left: what the expiry job expires. */
export const dueLots = (lots: readonly CreditLot[], now: Date): CreditLot[] => lots.filter((l) => l.expiresAt !== null && l.expiresAt <= now && l.remaining > 0);
