/** The audit trail's entries, a page at a time: who did what to which record, with before and after. */
import { formatOrderDate } from '@nh/shared/contracts/admin';
import { auditActionLabel, auditEntityLabel, type AuditEntry } from '@nh/shared/contracts/audit';
import { STAFF_ROLE_LABELS } from '@nh/shared/contracts/staff';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { Card, CardContent } from '@/components/ui/card';
import { serverMessageOf } from '@/lib/query-client';
import { columnsOf, DataTable } from '../../ui/data-table';
import { Pager } from '../../ui/pager';
import { AUDIT_PAGE_SIZE, auditQueries, type AuditFilters } from '../api';
import { auditChanges } from '../audit-changes';

/** Before and after of one entry, a line per changed field. */
function Changes({ entry }: { entry: AuditEntry }) {
  const changes = auditChanges(entry.before, entry.after);
  if (changes.length === 0) return <span className="text-stone-400">—</span>;
  return (
    <dl className="grid min-w-[16rem] grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1">
      {changes.map((change, index) => (
        <div key={`${change.field}-${index}`} className="contents">
          <dt className="font-medium text-stone-700">{change.field || 'Value'}</dt>
          <dd className="break-words">
            {change.before !== undefined && (
              <span className="text-red-800">
                <span className="sr-only">before: </span>
                <span data-testid="audit-before">{change.before}</span>
              </span>
            )}
            {change.before !== undefined && change.after !== undefined && (
              <span className="px-1 text-stone-400" aria-hidden="true">
                →
              </span>
            )}
            {change.after !== undefined && (
              <span className="text-green-800">
                <span className="sr-only">{change.before !== undefined ? ', after: ' : 'after: '}</span>
                <span data-testid="audit-after">{change.after}</span>
              </span>
            )}
          </dd>
        </div>
      ))}
    </dl>
  );
}

function RecordCell({ entry }: { entry: AuditEntry }) {
  const id = <span className="break-all font-mono text-xs">{entry.entityId}</span>;
  return (
    <>
      <span className="block">{auditEntityLabel(entry.entityType)}</span>
      {entry.entityType === 'order' ? (
        <Link to={`/admin-orders/${encodeURIComponent(entry.entityId)}`} className="text-brand-700 hover:underline">
          {id}
        </Link>
      ) : (
        id
      )}
    </>
  );
}

const column = columnsOf<AuditEntry>();

const AUDIT_COLUMNS = [
  column.display({ id: 'time', header: 'Time', meta: { className: 'whitespace-nowrap' }, cell: ({ row }) => formatOrderDate(row.original.at) }),
  column.display({
    id: 'staff',
    header: 'Staff',
    cell: ({ row: { original: entry } }) => (
      <>
        <span className="block max-w-[14rem] break-all">{entry.actorEmail}</span>
        {entry.actorRole && <span className="block text-xs text-stone-500">{STAFF_ROLE_LABELS[entry.actorRole]}</span>}
      </>
    ),
  }),
  column.display({ id: 'action', header: 'Action', cell: ({ row }) => auditActionLabel(row.original.action) }),
  column.display({ id: 'record', header: 'Record', cell: ({ row }) => <RecordCell entry={row.original} /> }),
  column.display({ id: 'changes', header: 'Changes (before → after)', cell: ({ row }) => <Changes entry={row.original} /> }),
  column.display({
    id: 'address',
    header: 'Address',
    meta: { className: 'text-xs text-stone-600' },
    cell: ({ row: { original: entry } }) => <span title={entry.userAgent ?? undefined}>{entry.ip ?? '—'}</span>,
  }),
];

export function AuditTable({ filters, onPage }: { filters: AuditFilters; onPage: (offset: number) => void }) {
  const page = useQuery({ ...auditQueries.page(filters), placeholderData: keepPreviousData });
  if (page.isPending) return <p className="text-stone-600">Loading audit trail...</p>;
  if (page.isError) return <p className="text-red-700">{serverMessageOf(page.error) ?? 'Failed to load the audit trail.'}</p>;
  const { entries, total } = page.data;
  if (entries.length === 0) return <p className="py-8 text-center text-stone-600">No audit entries match these filters.</p>;

  return (
    <div className="grid grid-cols-1 gap-4">
      <Card>
        <CardContent className="relative overflow-x-auto p-0">
          <DataTable
            columns={AUDIT_COLUMNS}
            data={entries}
            rowId={(entry) => String(entry.id)}
            className="min-w-[60rem]"
            busy={page.isFetching}
            rowProps={({ id }) => ({ 'data-testid': `audit-${id}` })}
          />
        </CardContent>
      </Card>
      <Pager offset={filters.offset} shown={entries.length} total={total} pageSize={AUDIT_PAGE_SIZE} onPage={onPage} />
    </div>
  );
}
