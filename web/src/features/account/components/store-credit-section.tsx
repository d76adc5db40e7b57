/** The shopper's store credit (issue 23): the balance, and each movement in words, newest first. Shown only once there is some history. */
import { toCents, formatCents } from '@nh/shared/money';
import type { StoreCreditView } from '@nh/shared/contracts/store-credit';
import { Link } from 'react-router-dom';
import { formatLongDate } from '@/lib/format-date';
import { Card, linkClass } from './account-page';

const signedCents = (amount: string): string => (amount.startsWith('-') ? `-${formatCents(toCents(amount.slice(1)))}` : `+${formatCents(toCents(amount))}`);

/** A goodwill grant's expiry in words: what is left of it expires then (or did). */
export const expiryWords = (expiresAt: string, now = new Date()): string =>
  `${new Date(expiresAt) <= now ? 'expired' : 'expires'} ${formatLongDate(expiresAt)}`;

export function StoreCreditSection({ credit }: { credit: StoreCreditView }) {
  if (credit.entries.length === 0) return null;
  return (
    <section aria-labelledby="store-credit" className="mb-6">
      <Card>
        <h2 id="store-credit" className="text-lg font-semibold text-brand-900">
          Store credit: {formatCents(toCents(credit.balance))}
        </h2>
        <p className="mt-1 text-sm text-stone-600">Your credit pays first at checkout and on each subscription delivery; your card is charged the rest.</p>
        <ul className="mt-4 divide-y divide-stone-100 text-sm" aria-label="Store credit history">
          {credit.entries.map((entry) => (
            <li key={entry.id} className="flex items-baseline justify-between gap-4 py-2">
              <span>
                <span className="font-medium text-stone-800">{entry.label}</span>
                <span className="ml-2 text-stone-500">{formatLongDate(entry.createdAt)}</span>
                {entry.expiresAt && <span className="ml-2 text-stone-500">{expiryWords(entry.expiresAt)}</span>}
                {entry.orderId && (
                  <Link to={`/account/orders/${entry.orderId}`} className={`ml-2 ${linkClass}`}>
                    Order {entry.orderId.slice(0, 8)}
                  </Link>
                )}
              </span>
              <span className={entry.amount.startsWith('-') ? 'text-stone-700' : 'text-brand-700'}>{signedCents(entry.amount)}</span>
            </li>
          ))}
        </ul>
      </Card>
    </section>
  );
}
