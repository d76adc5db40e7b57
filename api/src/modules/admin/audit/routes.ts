import { Router } from 'express';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { iterateAudit, listAudit } from '@nh/server/queries/audit';
import type { AuditEventRow } from '@nh/server/db/schema';
import { csvWriter, type CsvRow } from '@nh/server/csv';
import { CSV_CONTENT_TYPE } from '@nh/server/storage';
import {
  AUDIT_CSV_COLUMNS,
  auditActionLabel,
  auditEntityLabel,
  auditQuerySchema,
  type AuditEntry,
  type AuditPage,
} from '@nh/shared/contracts/audit';
import { STAFF_ROLE_LABELS } from '@nh/shared/contracts/staff';
import type { AppContext } from '../../../lib/context';
import { parseInput } from '../../../lib/validation';
import type { AdminArea, AdminDeps } from '../shared/area';

export const toAuditEntry = (r: AuditEventRow): AuditEntry => ({
  id: r.id,
  at: r.at.toISOString(),
  actorId: r.actorId,
  actorEmail: r.actorEmail,
  actorRole: r.actorRole,
  action: r.action,
  entityType: r.entityType,
  entityId: r.entityId,
  before: r.before ?? null,
  after: r.after ?? null,
  ip: r.ip,
  userAgent: r.userAgent,
  requestId: r.requestId,
});

const json = (value: unknown) => (value === null || value === undefined ? '' : JSON.stringify(value));

/**
 * A CSV row in staff words (role and action labels), the diff sides as JSON. Every cell goes through
 * the shop's CSV writer: the staff email, record id, user agent and request id come from requests
 * (a failed sign-in records the address and user agent anyone sent), so none is trusted.
 */
const csvRow = (r: AuditEventRow): CsvRow => [
  r.at.toISOString(),
  r.actorEmail,
  r.actorRole ? STAFF_ROLE_LABELS[r.actorRole] : '',
  auditActionLabel(r.action),
  auditEntityLabel(r.entityType),
  r.entityId,
  json(r.before),
  json(r.after),
  r.ip ?? '',
  r.userAgent ?? '',
  r.requestId ?? '',
];

/** The audit trail: a filtered, paged list, and the same filters as a CSV download streamed from the database. */
export function auditArea(ctx: AppContext, { guard }: AdminDeps): AdminArea[] {
  const list = Router();
  list.get('/', guard.require('audit.view'), async (req, res) => {
    const query = parseInput(auditQuerySchema, req.query);
    const { rows, total } = await listAudit(ctx.db, query);
    res.json({ entries: rows.map(toAuditEntry), total } satisfies AuditPage);
  });

  const csv = Router();
  csv.get('/', guard.require('audit.view'), async (req, res) => {
    const { limit: _limit, offset: _offset, ...filters } = parseInput(auditQuerySchema, req.query);
    const day = new Date().toISOString().slice(0, 10);
    res.status(200).set({ 'Content-Type': CSV_CONTENT_TYPE, 'Content-Disposition': `attachment; filename="nh-audit-${day}.csv"` });
    const rows = Readable.from(
      (async function* () {
        for await (const page of iterateAudit(ctx.db, filters)) for (const row of page) yield csvRow(row);
      })(),
    );
    await pipeline(rows, csvWriter({ columns: AUDIT_CSV_COLUMNS }), res);
  });

  return [
    { path: '/admin/audit', router: list },
    { path: '/admin/audit.csv', router: csv },
  ];
}
