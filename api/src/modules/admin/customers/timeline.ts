/**
 * A customer's page as one timeline, newest first: orders, refunds and voids, plans started and
 * cancelled, emails, reviews, notes and the staff changes (audit rows) on the customer, their orders
 * and plans. Each entry in staff's words.
 */
import type { CustomerRecords } from '@nh/server/queries/customers';
import { formatCents, toCents } from '@nh/shared/money';
import { AUDIT_ACTION_LABELS } from '@nh/shared/contracts/audit';
import type { CustomerTimelineEntry } from '@nh/shared/contracts/admin-customers';
import { ORDER_STATUS_WORDS, emailLabel, planMonths } from './words';

const short = (id: string) => id.slice(0, 8);
const every = (months: number) => (months === 1 ? 'every month' : `every ${months} months`);

export function customerTimeline(rec: CustomerRecords): CustomerTimelineEntry[] {
  const entries: CustomerTimelineEntry[] = [];
  const add = (e: Partial<CustomerTimelineEntry> & Pick<CustomerTimelineEntry, 'kind' | 'at' | 'title'>) =>
    entries.push({ detail: null, by: null, orderId: null, subscriptionId: null, ...e });
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
  for (const a of rec.audit) {
    if (a.action === 'customer.note_added' || a.action === 'order.note_added') continue; // the note itself is on the timeline
    add({
      kind: 'audit',
      at: a.at.toISOString(),
      title: (AUDIT_ACTION_LABELS as Record<string, string>)[a.action] ?? 'Staff change',
      detail: a.entity_type === 'customer' ? null : `${a.entity_type === 'order' ? 'Order' : 'Subscription'} ${short(a.entity_id)}`,
      by: a.actor_email,
      orderId: a.entity_type === 'order' ? a.entity_id : null,
      subscriptionId: a.entity_type === 'subscription' ? a.entity_id : null,
    });
  }
  return entries.sort((x, y) => (x.at < y.at ? 1 : x.at > y.at ? -1 : 0));
}
