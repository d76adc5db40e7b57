/**
 * The store-credit card of a customer's page (issue 23; docs/decisions/store-credit.md): an account's
 * balance and ledger in words, with "Give credit" for staff who may (`credit.grant`). A guest has no
 * ledger: the card says how to give one credit (a sign-in code makes the account).
 */
import type { CustomerDetail } from '@nh/shared/contracts/admin-customers';
import { formatOrderDate } from '@nh/shared/contracts/admin';
import { formatCents, parseCents } from '@nh/shared/money';
import { Link } from 'react-router-dom';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { useCan } from '../../shell/role-gate';
import { GrantCreditButton } from '../../credit/components/grant-credit-dialog';

const money = (amount: string) => {
  const negative = amount.startsWith('-');
  const cents = parseCents(negative ? amount.slice(1) : amount) ?? 0;
  return `${negative ? '−' : '+'}${formatCents(cents)}`;
};

export function CustomerCredit({ customer: c, onGranted }: { customer: CustomerDetail; onGranted: () => void }) {
  const canGrant = useCan('credit.grant') && !c.anonymised;
  const credit = c.credit;
  return (
    <Card>
      <CardHeader className="flex flex-row items-center justify-between gap-2">
        <CardTitle>Store credit</CardTitle>
        {canGrant && credit && <GrantCreditButton customerId={c.id} onGranted={onGranted} />}
      </CardHeader>
      <CardContent className="grid gap-3">
        {!credit ? (
          <p className="text-sm text-stone-600">A guest has no store credit. Send them a sign-in code to make an account; then credit can be given.</p>
        ) : (
          <>
            <p className="text-sm text-stone-700">
              Balance <span className="text-lg font-semibold tabular-nums text-brand-900">{formatCents(parseCents(credit.balance) ?? 0)}</span>
            </p>
            {credit.entries.length === 0 ? (
              <p className="text-sm text-stone-600">No store credit yet.</p>
            ) : (
              <ul className="grid gap-2" aria-label="Store credit history, newest first">
                {credit.entries.map((e) => (
                  <li key={e.id} className="grid gap-0.5 border-l-2 border-stone-200 pl-3 text-sm">
                    <p className="text-xs text-stone-500">
                      {formatOrderDate(e.createdAt)}
                      {e.staffName && ` · ${e.staffName}`}
                    </p>
                    <p className="font-medium text-stone-900">
                      {e.label} <span className="tabular-nums">{money(e.amount)}</span>
                      {e.orderId && (
                        <>
                          {' '}
                          on order{' '}
                          <Link to={`/admin-orders/${e.orderId}`} className="font-mono text-brand-700 hover:underline">
                            {e.orderId.slice(0, 8)}
                          </Link>
                        </>
                      )}
                    </p>
                    <p className="text-xs text-stone-600">
                      {e.reason && `${e.reason} · `}Balance after {formatCents(parseCents(e.balanceAfter) ?? 0)}
                      {e.expiresAt && ` · ${new Date(e.expiresAt) <= new Date() ? 'Expired' : 'Expires'} ${formatOrderDate(e.expiresAt)}`}
                    </p>
                  </li>
                ))}
              </ul>
            )}
          </>
        )}
      </CardContent>
    </Card>
  );
}
