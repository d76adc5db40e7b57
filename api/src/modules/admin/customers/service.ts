/**
 * The back office's customers (issue 23): the list, a customer's page as one timeline, notes on
 * customers and orders, tags. Each change writes its audit row in its transaction.
 */
import type { Db } from '@nh/server/db/client';
import { recordAudit, type AuditActor } from '@nh/server/queries/audit';
import { catchUpReportSummary } from '@nh/server/queries/report-summary';
import {
  customerRecords,
  findCustomer,
  insertCustomerNote,
  lockCustomerTags,
  listCustomers,
  orderCustomerId,
  orderNotes,
  setCustomerTags,
  type CustomerListRow,
  type CustomerRecords,
  type CustomerRowFull,
} from '@nh/server/queries/customers';
import { creditBalance, creditHistory, type CreditEntry } from '@nh/server/queries/store-credit';
import { centsToDecimal, toCents } from '@nh/shared/money';
import { toStaffStoreCreditEntryView } from '@nh/shared/contracts/store-credit';
import {
  CUSTOMER_MESSAGES,
  CUSTOMER_PAGE_SIZE,
  type CustomerDetail,
  type CustomerList,
  type CustomerListQuery,
  type CustomerNote,
  type OrderNotes,
  type CustomerSummary,
} from '@nh/shared/contracts/admin-customers';
import type { StaffMe } from '@nh/shared/contracts/staff';
import { AppError } from '../../../lib/errors';
import { isUuid } from '../../../lib/validation';
import { customerTimeline } from './timeline';
import { ORDER_STATUS_WORDS, emailLabel, planOf } from './words';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

const toSummary = (r: CustomerListRow): CustomerSummary => ({
  id: r.id,
  email: r.email,
  name: r.name,
  hasAccount: r.has_account,
  orderCount: r.order_count,
  lifetimeSpend: r.spend_cents,
  firstOrderAt: iso(r.first_order_at),
  lastOrderAt: iso(r.last_order_at),
  tags: r.tags,
  anonymised: r.anonymised_at !== null,
});

export async function customerList(db: Db, q: CustomerListQuery): Promise<CustomerList> {
  const { rows, hasMore } = await listCustomers(db, q);
  return { customers: rows.map(toSummary), page: q.page, pageSize: CUSTOMER_PAGE_SIZE, hasMore };
}

/** The customer, or a 404 (a malformed id too). */
export async function loadCustomer(db: Db, id: string): Promise<CustomerRowFull> {
  const row = isUuid(id) ? await findCustomer(db.$client, id.toLowerCase()) : null;
  if (!row) throw new AppError('NOT_FOUND', CUSTOMER_MESSAGES.notFound);
  return row;
}

/**
 * The customer, with figures that count every write committed before (migration
 * customer_figures_deferred): for the reads that show them, the page and the privacy export; the
 * actions that only need the customer's row do not wait for a catch-up.
 */
export async function loadCustomerWithFigures(db: Db, id: string): Promise<CustomerRowFull> {
  await catchUpReportSummary(db.$client, { wait: true });
  return loadCustomer(db, id);
}

const toNote = (n: { id: number; body: string; orderId: string | null; staffName: string; at: Date }): CustomerNote => ({
  id: n.id,
  body: n.body,
  orderId: n.orderId,
  author: n.staffName,
  at: n.at.toISOString(),
});

/** An account's store credit as the page shows it (null for a guest: a guest has no ledger). */
export interface CustomerCreditRecords {
  balance: number;
  entries: CreditEntry[];
}

async function creditOf(db: Db, c: CustomerRowFull): Promise<CustomerCreditRecords | null> {
  if (!c.user_id) return null;
  const [balance, entries] = await Promise.all([creditBalance(db.$client, c.user_id), creditHistory(db.$client, c.user_id)]);
  return { balance, entries };
}

export function detailOf(c: CustomerRowFull, rec: CustomerRecords, credit: CustomerCreditRecords | null = null): CustomerDetail {
  return {
    ...toSummary(c),
    phone: rec.orders.find((o) => o.customer_phone)?.customer_phone ?? null,
    signedUpAt: iso(c.signed_up_at),
    newsletter: c.newsletter,
    refunded: c.refunded_cents,
    averageOrder: c.order_count > 0 ? Math.round(c.spend_cents / c.order_count) : null,
    orders: rec.orders.map((o) => ({
      id: o.id,
      createdAt: o.created_at.toISOString(),
      status: o.status,
      statusLabel: ORDER_STATUS_WORDS[o.status] ?? o.status,
      total: toCents(o.total),
      refunded: toCents(o.refunded),
      itemCount: o.item_count,
    })),
    plans: rec.plans.map((p) => planOf(p)),
    reviews: rec.reviews.map((r) => ({ id: r.id, productName: r.product_name, rating: r.rating, title: r.title, createdAt: r.created_at.toISOString(), hidden: r.hidden })),
    emails: rec.emails.map((e) => ({ kind: e.kind, label: emailLabel(e.kind), status: e.status, at: e.at.toISOString() })),
    notes: rec.notes.map((n) => toNote({ id: n.id, body: n.body, orderId: n.order_id, staffName: n.staff_name, at: n.at })),
    credit: credit ? { balance: centsToDecimal(credit.balance), entries: credit.entries.map(toStaffStoreCreditEntryView) } : null,
    timeline: customerTimeline(rec, credit?.entries ?? []),
  };
}

export async function customerDetail(db: Db, id: string): Promise<CustomerDetail> {
  const c = await loadCustomerWithFigures(db, id);
  const [rec, credit] = await Promise.all([customerRecords(db, c), creditOf(db, c)]);
  return detailOf(c, rec, credit);
}

/** A note on the customer (orderId null) or on one of their orders; audited on the customer or the order. */
async function writeNote(db: Db, customerId: string | null, orderId: string | null, body: string, staff: StaffMe, actor: AuditActor): Promise<CustomerNote> {
  return db.transaction(async (tx) => {
    const row = await insertCustomerNote(tx, { customerId, orderId, body, staffId: staff.id, staffName: staff.name, staffEmail: staff.email });
    await recordAudit(tx, actor, {
      action: orderId ? 'order.note_added' : 'customer.note_added',
      entityType: orderId ? 'order' : 'customer',
      entityId: orderId ?? customerId!,
      before: null,
      after: { noteId: row.id, body },
    });
    return toNote(row);
  });
}

export async function addCustomerNote(db: Db, id: string, body: string, staff: StaffMe, actor: AuditActor): Promise<CustomerNote> {
  const c = await loadCustomer(db, id);
  return writeNote(db, c.id, null, body, staff, actor);
}

async function orderCustomer(db: Db, orderId: string): Promise<string | null> {
  const found = isUuid(orderId) ? await orderCustomerId(db, orderId.toLowerCase()) : null;
  if (!found) throw new AppError('NOT_FOUND', CUSTOMER_MESSAGES.orderNotFound);
  return found.customerId;
}

export async function addOrderNote(db: Db, orderId: string, body: string, staff: StaffMe, actor: AuditActor): Promise<CustomerNote> {
  const customerId = await orderCustomer(db, orderId);
  return writeNote(db, customerId, orderId.toLowerCase(), body, staff, actor);
}

/** The notes on an order, and its customer (the order page links to the customer's page). */
export async function notesOfOrder(db: Db, orderId: string): Promise<OrderNotes> {
  const customerId = await orderCustomer(db, orderId);
  return { customerId, notes: (await orderNotes(db, orderId.toLowerCase())).map(toNote) };
}

/** Replaces the customer's tags; the same set again changes and records nothing. */
export async function replaceCustomerTags(db: Db, id: string, tags: string[], actor: AuditActor): Promise<{ tags: string[] }> {
  const { id: customerId } = await loadCustomer(db, id);
  return db.transaction(async (tx) => {
    const locked = await lockCustomerTags(tx, customerId);
    if (!locked) throw new AppError('NOT_FOUND', CUSTOMER_MESSAGES.notFound);
    if (JSON.stringify(locked.tags) === JSON.stringify(tags)) return { tags };
    await setCustomerTags(tx, customerId, tags);
    await recordAudit(tx, actor, { action: 'customer.tags_changed', entityType: 'customer', entityId: customerId, before: { tags: locked.tags }, after: { tags } });
    return { tags };
  });
}
