/** A shopper asked for a sign-in code (issue 22): 6 digits, 10 minutes, once; made as this email is sent. */
import { z } from 'zod';
import { OUTBOX_TOPICS } from '@nh/shared/contracts/outbox';
import { SHOP } from '@nh/shared/constants';
import { SIGN_IN_CODE_TTL_MS } from '@nh/shared/contracts/auth';
import { findUserNameById } from '@nh/server/queries/shopper-self-service';
import { findSignInCodeById, mintSignInCode, SIGN_IN_CODE_TRIES } from '@nh/server/queries/sign-in-codes';
import { defineEmail, skip } from './define-email';
import { escapeHtml, layout, signatureText, type Content } from './mail/layout';

/** Subject id: the code's row (one email per request). The code exists only in this email. */
export const email = defineEmail({
  name: 'shopper-sign-in-code',
  payload: z.object({ codeId: z.string().uuid() }),
  topics: { [OUTBOX_TOPICS.shopperSignInCodeRequested]: ({ codeId }) => ({ codeId }) },
  async compose(db, { codeId }) {
    const row = await findSignInCodeById(db, codeId);
    if (!row) return skip('code not found');
    if (row.usedAt || row.expiresAt.getTime() <= Date.now() || row.tries >= SIGN_IN_CODE_TRIES) return skip('code used or expired');
    const user = row.userId ? await findUserNameById(db, row.userId) : null;
    return {
      subjectId: codeId,
      to: row.email,
      mint: (tx) => mintSignInCode(tx, codeId),
      message: (code) => signInCodeEmail(user?.firstName ?? null, code),
    };
  },
});

export function signInCodeEmail(firstName: string | null, code: string): Content {
  const subject = `Your ${SHOP.name} sign-in code`; // not the code itself: subjects show on lock screens
  const minutes = SIGN_IN_CODE_TTL_MS / 60_000;
  const greeting = firstName ? `Hi ${firstName},` : 'Hello,';
  const body = `Type it on the sign-in page within ${minutes} minutes; it works once. If you did not ask, ignore this email: nobody can sign in without the code.`;
  const text = [greeting, '', `Your ${SHOP.name} sign-in code is ${code}`, '', body, '', signatureText()].join('\n');
  const html = layout(
    subject,
    `<p>${escapeHtml(greeting)}</p>
<p>Your ${escapeHtml(SHOP.name)} sign-in code is</p>
<p style="font-size:28px;font-weight:bold;letter-spacing:6px;color:#2f5d3a">${escapeHtml(code)}</p>
<p>${escapeHtml(body)}</p>`,
  );
  return { subject, text, html };
}
