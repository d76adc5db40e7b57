/**
 * A customer's page as one timeline, newest first: orders, refunds and voids, plans started and
 * cancelled, emails, reviews, notes and the staff changes (audit rows) on the customer, their orders
 * and plans. Each entry in staff's words.
 */
import type { CustomerRecords } from '@nh/server/queries/customers';
import type { CreditEntry } from '@nh/server/queries/store-credit';
import { STORE_CREDIT_KIND_LABELS } from '@nh/shared/contracts/store-credit';
import { formatCents, toCents } from '@nh/shared/money';
import { AUDIT_ACTION_LABELS } from '@nh/shared/contracts/audit';
import { CLAIM_DECISION_ACTIONS, claimDecisionSummary } from '@nh/shared/contracts/claims';
import type { CustomerTimelineEntry } from '@nh/shared/contracts/admin-customers';
import { ORDER_STATUS_WORDS, emailLabel, planMonths } from './words';

const short = (id: string) => id.slice(0, 8);
const every = (months: number) => (months === 1 ? 'every month' : `every ${months} months`);

const signedMoney = (cents: number) => (cents < 0 ? `−${formatCents(-cents)}` : `+${formatCents(cents)}`);

/** A decimal amount ("15.00") of an audit row's details, in dollars, or null. */
const moneyOf = (v: unknown): string | null => (typeof v === 'string' && /^\d+(\.\d{1,2})?$/.test(v) ? formatCents(toCents(v)) : null);

/** The words of a staff grant's audit row: amount, reason and the balance before and after. */
function grantDetail(before: unknown, after: unknown): string | null {
  const a = (after ?? {}) as Record<string, unknown>;
  const b = (before ?? {}) as Record<string, unknown>;
  const amount = moneyOf(a.amount);
  if (!amount) return null;
  const reason = typeof a.reason === 'string' && a.reason ? `: ${a.reason}` : '';
  const from = moneyOf(b.balance);
  const to = moneyOf(a.balance);
  return `${amount}${reason}${from && to ? ` (balance ${from} → ${to})` : ''}`;
}

/**
 * The timeline of a customer. `credit` is the account's store-credit ledger: each movement in words,
 * except staff grants, which the grant's audit row ("Gave store credit", with amount, reason and who)
 * already shows, so a grant is one entry, not two.
 */
export function customerTimeline(rec: CustomerRecords, credit: CreditEntry[] = []): CustomerTimelineEntry[] {
  const entries: CustomerTimelineEntry[] = [];
  const add = (e: Partial<CustomerTimelineEntry> & Pick<CustomerTimelineEntry, 'kind' | 'at' | 'title'>) =>
    entries.push({ detail: null, by: null, orderId: null, subscriptionId: null, replacementOrderId: null, ...e });
  for (const o of rec.orders) {
    add({
      kind: 'order',
      at: o.created_at.toISOString(),
      title: `Order ${short(o.id)} placed`,
      detail: `${formatCents(toCents(o.total))}, ${o.item_count} ${o.item_count === 1 ? 'item' : 'items'}; now ${ORDER_STATUS_WORDS[o.status] ?? o.status}`,
      orderId: o.id,
      subscriptionId: o.subscription_id,
    });
  }
  for (const r of rec.refunds) {
    add({
      kind: 'refund',
      at: r.created_at.toISOString(),
      title: `${r.kind === 'void' ? 'Payment voided' : 'Refunded'} ${formatCents(toCents(r.amount))} of order ${short(r.order_id)}`,
      detail: r.reason,
      by: r.staff_name,
      orderId: r.order_id,
    });
  }
  for (const p of rec.plans) {
    add({ kind: 'plan', at: p.created_at.toISOString(), title: `Subscription ${short(p.id)} started`, detail: `${formatCents(toCents(p.amount))} ${every(planMonths(p))}`, subscriptionId: p.id });
    if (p.cancelled_at) add({ kind: 'plan', at: p.cancelled_at.toISOString(), title: `Subscription ${short(p.id)} cancelled`, subscriptionId: p.id });
  }
  for (const e of rec.emails) {
    add({ kind: 'email', at: e.at.toISOString(), title: `Email: ${emailLabel(e.kind)}`, detail: e.status === 'sent' ? 'Sent' : e.status === 'failed' ? 'Not sent (failed)' : 'Waiting to be sent' });
  }
  for (const r of rec.reviews) {
    add({ kind: 'review', at: r.created_at.toISOString(), title: `Reviewed ${r.product_name}: ${r.rating} of 5 stars`, detail: r.hidden ? `${r.title ?? ''} (hidden from the shop)`.trim() : r.title });
  }
  for (const n of rec.notes) {
    add({ kind: 'note', at: n.at.toISOString(), title: n.order_id ? `Note on order ${short(n.order_id)}` : 'Note', detail: n.body, by: n.staff_name, orderId: n.order_id });
  }
  for (const e of credit) {
    if (e.kind === 'grant') continue; // the audit row "Gave store credit" is its entry
    add({
      kind: 'credit',
      at: e.createdAt.toISOString(),
      title: `Store credit: ${STORE_CREDIT_KIND_LABELS[e.kind]} ${signedMoney(e.amount)}${e.orderId ? ` (order ${short(e.orderId)})` : ''}`,
      detail: [e.reason, `Balance ${formatCents(e.balanceAfter)}`].filter(Boolean).join('; '),
      by: e.staffName,
      orderId: e.orderId,
      subscriptionId: e.subscriptionId,
    });
  }
  for (const a of rec.audit) {
    if (a.action === 'customer.note_added' || a.action === 'order.note_added') continue; // the note itself is on the timeline
    if ((CLAIM_DECISION_ACTIONS as readonly string[]).includes(a.action)) {
      // A claim's decision names what it gave: the replacement order (linked), the refund or the credit.
      const claim = claimDecisionSummary(a.after);
      add({
        kind: 'audit',
        at: a.at.toISOString(),
        title: AUDIT_ACTION_LABELS[a.action as keyof typeof AUDIT_ACTION_LABELS],
        detail: [`Order ${short(a.entity_id)}`, claim.detail].filter(Boolean).join(' · '),
        by: a.actor_email,
        orderId: a.entity_id,
        replacementOrderId: claim.replacementOrderId,
      });
      continue;
    }
    add({
      kind: 'audit',
      at: a.at.toISOString(),
      title: (AUDIT_ACTION_LABELS as Record<string, string>)[a.action] ?? 'Staff change',
      detail:
        a.action === 'customer.credit_granted'
          ? grantDetail(a.before, a.after)
          : a.entity_type === 'customer'
            ? null
            : `${a.entity_type === 'order' ? 'Order' : 'Subscription'} ${short(a.entity_id)}`,
      by: a.actor_email,
      orderId: a.entity_type === 'order' ? a.entity_id : null,
      subscriptionId: a.entity_type === 'subscription' ? a.entity_id : null,
    });
  }
  return entries.sort((x, y) => (x.at < y.at ? 1 : x.at > y.at ? -1 : 0));
}
