/**
 * Staff giving store credit (POST /api/admin/customers/{id}/credit; docs/decisions/store-credit.md).
 * The customer id of an account is its users.id; a guest has no ledger (CREDIT_NO_ACCOUNT, with what to
 * do). Owners and managers give any amount, support up to SUPPORT_CREDIT_LIMIT per grant. The ledger
 * row and its audit row are one transaction; the request's Idempotency-Key makes a second click, a
 * second tab or a retry answer the first grant instead of giving twice.
 */
import type { Db } from '@nh/server/db/client';
import { recordAudit, type AuditActor } from '@nh/server/queries/audit';
import { creditBalance, creditHistory, findCreditAccount, findCreditEntry, moveCreditInTx } from '@nh/server/queries/store-credit';
import { centsToDecimal, type Cents } from '@nh/shared/money';
import type { StaffRole } from '@nh/shared/contracts/staff';
import {
  creditOverLimitMessage,
  STORE_CREDIT_MESSAGES,
  toStaffStoreCreditEntryView,
  type GrantCreditResponse,
  type StaffStoreCreditEntryView,
} from '@nh/shared/contracts/store-credit';
import { AppError } from '../../../lib/errors';
import type { IdempotencyMessages } from '../../../lib/idempotency';

export const GRANT_IDEMPOTENCY_MESSAGES: IdempotencyMessages = {
  missing: STORE_CREDIT_MESSAGES.idempotencyKeyMissing,
  invalid: STORE_CREDIT_MESSAGES.idempotencyKeyInvalid,
  reused: STORE_CREDIT_MESSAGES.idempotencyKeyReused,
  inProgress: STORE_CREDIT_MESSAGES.idempotencyInProgress,
};

export interface GrantRequest {
  amount: Cents;
  reason: string;
}

export interface GrantAnswer {
  body: GrantCreditResponse;
  replayed: boolean;
}

/** The account behind a customer id, or the refusal a person can act on. */
async function accountOf(db: Db, customerId: string): Promise<{ id: string; email: string }> {
  const account = await findCreditAccount(db.$client, customerId);
  if (!account) throw new AppError('CREDIT_NO_ACCOUNT', STORE_CREDIT_MESSAGES.noAccount);
  return account;
}

/** The most `role` may give in one grant (null: no limit). */
export const grantLimitOf = (role: StaffRole | null, supportLimit: Cents): Cents | null => (role === 'owner' || role === 'manager' ? null : supportLimit);

/** When a grant made at `now` expires (STORE_CREDIT_EXPIRY_DAYS; 0: never). */
export const grantExpiry = (days: number, now: Date): Date | null => (days > 0 ? new Date(now.getTime() + days * 86_400_000) : null);

export async function grantCredit(db: Db, customerId: string, input: GrantRequest, key: string, actor: AuditActor, supportLimit: Cents, expiryDays = 0): Promise<GrantAnswer> {
  const account = await accountOf(db, customerId);
  const limit = grantLimitOf(actor.role, supportLimit);
  if (limit !== null && input.amount > limit) throw new AppError('CREDIT_OVER_LIMIT', creditOverLimitMessage(limit), { limit: centsToDecimal(limit) });

  const expiresAt = grantExpiry(expiryDays, new Date());
  const moved = await db.transaction(async (tx) => {
    const result = await moveCreditInTx(tx, {
      userId: account.id,
      kind: 'grant',
      amount: input.amount,
      reason: input.reason,
      staffId: actor.staffId,
      orderId: null,
      subscriptionId: null,
      reference: `grant:${account.id}:${key}`,
      expiresAt,
    });
    if (!result.replayed) {
      await recordAudit(tx, actor, {
        action: 'customer.credit_granted',
        entityType: 'customer',
        entityId: account.id,
        before: { balance: centsToDecimal(result.balanceAfter - result.amount) },
        after: { balance: centsToDecimal(result.balanceAfter), amount: centsToDecimal(input.amount), reason: input.reason, email: account.email, expiresAt: expiresAt?.toISOString() ?? null },
      });
    }
    return result;
  });
  const entry = (await findCreditEntry(db.$client, moved.entryId))!;
  if (moved.replayed && (entry.amount !== input.amount || entry.reason !== input.reason)) throw new AppError('IDEMPOTENCY_KEY_REUSED', STORE_CREDIT_MESSAGES.idempotencyKeyReused);
  const balance = await creditBalance(db.$client, account.id);
  return { body: { balance: centsToDecimal(balance), entry: toStaffStoreCreditEntryView(entry) }, replayed: moved.replayed };
}

/** The account's balance and history as staff see them (with reasons and who gave it). */
export async function staffCreditView(db: Db, customerId: string): Promise<{ balance: string; entries: StaffStoreCreditEntryView[] }> {
  const account = await accountOf(db, customerId);
  const [balance, entries] = await Promise.all([creditBalance(db.$client, account.id), creditHistory(db.$client, account.id)]);
  return { balance: centsToDecimal(balance), entries: entries.map(toStaffStoreCreditEntryView) };
}
