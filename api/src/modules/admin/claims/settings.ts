/** The owner's auto-approval rule of shoppers' claims (GET/PUT /api/admin/claims/settings), audited. */
import { centsToDecimal, toCents } from '@nh/shared/money';
import type { ClaimSettings } from '@nh/shared/contracts/claims';
import type { Db } from '@nh/server/db/client';
import { recordAudit, type AuditActor } from '@nh/server/queries/audit';
import { readClaimSettings, writeClaimSettings, type ClaimSettingsRow } from '@nh/server/queries/claims';

const view = (row: ClaimSettingsRow): ClaimSettings => ({ autoApprove: row.autoApprove, maxAmount: centsToDecimal(row.maxAmountCents), windowMonths: row.windowMonths });

export async function claimSettingsView(db: Db): Promise<ClaimSettings> {
  return view(await readClaimSettings(db));
}

export async function changeClaimSettings(db: Db, input: ClaimSettings, actor: AuditActor): Promise<ClaimSettings> {
  return db.transaction(async (tx) => {
    const before = view(await readClaimSettings(tx));
    const after = view(await writeClaimSettings(tx, { autoApprove: input.autoApprove, maxAmountCents: toCents(input.maxAmount), windowMonths: input.windowMonths }));
    await recordAudit(tx, actor, { action: 'claims.settings_changed', entityType: 'claim_settings', entityId: '1', before, after });
    return after;
  });
}
