/**
 * A record's own audit trail (what staff did to it) on its detail screen, for the roles that may read
 * the audit trail: plans, products, promo codes, staff accounts… (orders show theirs in the timeline).
 */
import { formatOrderDate } from '@nh/shared/contracts/admin';
import { auditActionLabel } from '@nh/shared/contracts/audit';
import { STAFF_ROLE_LABELS } from '@nh/shared/contracts/staff';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { serverMessageOf } from '@/lib/query-client';
import type { AuditEntityType } from '@nh/shared/contracts/audit';
import { auditQueries, NO_AUDIT_FILTERS } from '../api';
import { AuditChangeList } from './audit-change-list';

export function EntityHistory({ entityType, entityId, testId }: { entityType: AuditEntityType; entityId: string; testId: string }) {
  const history = useQuery(auditQueries.page({ ...NO_AUDIT_FILTERS, entityType, entityId }));
  return (
    <Card data-testid={testId}>
      <CardHeader className="flex-row flex-wrap items-center justify-between gap-2">
        <CardTitle className="text-base">Staff changes</CardTitle>
        <Link
          to={`/admin/audit?entityType=${entityType}&entityId=${encodeURIComponent(entityId)}`}
          className="text-sm font-medium text-brand-700 hover:underline"
        >
          Open in the audit trail
        </Link>
      </CardHeader>
      <CardContent>
        {history.isPending ? (
          <p className="text-stone-600">Loading changes...</p>
        ) : history.isError ? (
          <p className="text-red-700">{serverMessageOf(history.error) ?? 'Failed to load the changes.'}</p>
        ) : history.data.entries.length === 0 ? (
          <p className="text-stone-600">No staff changes yet.</p>
        ) : (
          <ol className="grid grid-cols-1 gap-3 text-sm">
            {history.data.entries.map((entry) => (
              <li key={entry.id} className="rounded-lg border border-stone-200 p-3" data-testid={`${testId}-${entry.id}`}>
                <p className="font-medium">{auditActionLabel(entry.action)}</p>
                <p className="text-xs text-stone-600">
                  {formatOrderDate(entry.at)} · {entry.actorEmail}
                  {entry.actorRole && ` (${STAFF_ROLE_LABELS[entry.actorRole]})`}
                </p>
                <AuditChangeList before={entry.before} after={entry.after} />
              </li>
            ))}
          </ol>
        )}
      </CardContent>
    </Card>
  );
}
