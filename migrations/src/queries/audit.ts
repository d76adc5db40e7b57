/**
 * The audit trail's writes and reads. `recordAudit` goes into the transaction of the change it records,
 * so a change and its audit row exist together or not at all; the table refuses UPDATE and DELETE.
 */
import { and, count, desc, eq, gte, ilike, lt, type SQL } from 'drizzle-orm';
import type { AuditAction, AuditEntityType, AuditQuery } from '@nh/shared/contracts/audit';
import type { StaffRole } from '@nh/shared/contracts/staff';
import type { Db, DbOrTx } from '../db/client';
import { auditEvents, type AuditEventRow } from '../db/schema';

/** Who acted, and from where: taken from the request by the API. */
export interface AuditActor {
  staffId: string | null;
  email: string;
  role: StaffRole | null;
  ip: string | null;
  userAgent: string | null;
  requestId: string | null;
}

export interface AuditRecord {
  action: AuditAction;
  entityType: AuditEntityType;
  entityId: string;
  /** The changed fields as they were (null when the entity is new). */
  before?: Record<string, unknown> | null;
  /** The changed fields as they became (null when the entity is gone). */
  after?: Record<string, unknown> | null;
}

/**
 * Audit rows for one actor: one record, or several written by one statement (a bulk action). Answers
 * the new rows' ids in the order of `records` (e.g. for an email that says what the change was).
 */
export async function recordAudit(tx: DbOrTx, actor: AuditActor, records: AuditRecord | readonly AuditRecord[]): Promise<number[]> {
  const list = Array.isArray(records) ? records : [records as AuditRecord];
  if (list.length === 0) return [];
  const who = { actorId: actor.staffId, actorEmail: actor.email, actorRole: actor.role, ip: actor.ip, userAgent: actor.userAgent?.slice(0, 500) ?? null, requestId: actor.requestId };
  const rows = await tx
    .insert(auditEvents)
    .values(list.map((r) => ({ ...who, action: r.action, entityType: r.entityType, entityId: r.entityId, before: r.before ?? null, after: r.after ?? null })))
    .returning({ id: auditEvents.id });
  return rows.map((r) => r.id).sort((a, b) => a - b);
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The JSON diff of an update: only the fields of `after` whose value differs from `before`, each side
 * as it was and as it became. Null when nothing changed.
 */
export function auditDiff<T extends Record<string, unknown>>(before: T, after: Partial<T>): { before: Record<string, unknown>; after: Record<string, unknown> } | null {
  const was: Record<string, unknown> = {};
  const now: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(after)) {
    if (value === undefined || same(before[key], value)) continue;
    was[key] = before[key] ?? null;
    now[key] = value;
  }
  return Object.keys(now).length === 0 ? null : { before: was, after: now };
}

const DAY_MS = 86_400_000;

function auditWhere(q: Omit<AuditQuery, 'limit' | 'offset'>): SQL | undefined {
  const escaped = q.actor?.replace(/[\\%_]/g, (c) => `\\${c}`);
  return and(
    escaped ? ilike(auditEvents.actorEmail, `%${escaped}%`) : undefined,
    q.entityType ? eq(auditEvents.entityType, q.entityType) : undefined,
    q.entityId ? eq(auditEvents.entityId, q.entityId) : undefined,
    q.action ? eq(auditEvents.action, q.action) : undefined,
    q.from ? gte(auditEvents.at, new Date(`${q.from}T00:00:00Z`)) : undefined,
    q.to ? lt(auditEvents.at, new Date(Date.parse(`${q.to}T00:00:00Z`) + DAY_MS)) : undefined,
  );
}

/** One page of the trail, newest first (ids follow the order of the writes), and how many rows match. */
export async function listAudit(db: Db, q: AuditQuery): Promise<{ rows: AuditEventRow[]; total: number }> {
  const where = auditWhere(q);
  const [rows, [totals]] = await Promise.all([
    db.select().from(auditEvents).where(where).orderBy(desc(auditEvents.id)).limit(q.limit).offset(q.offset),
    db.select({ total: count() }).from(auditEvents).where(where),
  ]);
  return { rows, total: totals?.total ?? 0 };
}

/** Every matching row, newest first, in batches (the CSV download streams them). */
export async function* iterateAudit(db: Db, q: Omit<AuditQuery, 'limit' | 'offset'>, batch = 1000): AsyncGenerator<AuditEventRow[]> {
  let before: number | null = null;
  for (;;) {
    const page: AuditEventRow[] = await db
      .select()
      .from(auditEvents)
      .where(and(auditWhere(q), before === null ? undefined : lt(auditEvents.id, before)))
      .orderBy(desc(auditEvents.id))
      .limit(batch);
    if (page.length > 0) yield page;
    if (page.length < batch) return;
    before = page[page.length - 1]!.id;
  }
}
