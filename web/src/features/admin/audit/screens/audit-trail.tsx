import { formatOrderDate } from '@nh/shared/contracts/admin';
import {
  AUDIT_ACTION_LABELS,
  AUDIT_ACTIONS,
  AUDIT_ENTITY_LABELS,
  AUDIT_ENTITY_TYPES,
  auditActionLabel,
  auditEntityLabel,
  auditQuerySchema,
  type AuditAction,
  type AuditEntityType,
  type AuditEntry,
} from '@nh/shared/contracts/audit';
import { STAFF_ROLE_LABELS } from '@nh/shared/contracts/staff';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Download } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { serverMessageOf } from '@/lib/query-client';
import { usePageMeta } from '@/lib/use-page-meta';
import { adminKeys, AUDIT_PAGE_SIZE, auditCsvUrl, listAudit, type AuditFilters } from '../api';
import { auditChanges } from '../audit-changes';
import { AdminPage } from '../components/admin-frame';
import { RoleGate } from '../components/role-gate';
import { FilterButtons, FilterSelect, ProblemList } from '../components/filter-form';
import { filterParams, filterProblems } from '../filter-params';

const FILTER_KEYS = ['actor', 'entityType', 'entityId', 'action', 'from', 'to'] as const;

/** The filters of the URL (so a filtered view can be linked to); unknown kinds or actions read as "any". */
function filtersOf(params: URLSearchParams): AuditFilters {
  const entityType = params.get('entityType') ?? '';
  const action = params.get('action') ?? '';
  const offset = Number.parseInt(params.get('offset') ?? '0', 10);
  return {
    actor: params.get('actor') ?? '',
    entityType: (AUDIT_ENTITY_TYPES as string[]).includes(entityType) ? (entityType as AuditEntityType) : '',
    entityId: params.get('entityId') ?? '',
    action: (AUDIT_ACTIONS as string[]).includes(action) ? (action as AuditAction) : '',
    from: params.get('from') ?? '',
    to: params.get('to') ?? '',
    offset: Number.isFinite(offset) && offset > 0 ? offset : 0,
  };
}

const paramsOf = (filters: AuditFilters): URLSearchParams => filterParams(FILTER_KEYS, filters);

function FilterForm({ applied, onApply }: { applied: AuditFilters; onApply: (filters: AuditFilters) => void }) {
  const ids = { actor: useId(), entityType: useId(), entityId: useId(), action: useId(), from: useId(), to: useId() };
  const [draft, setDraft] = useState(applied);
  const [problems, setProblems] = useState<string[]>([]);
  const set = <K extends keyof AuditFilters>(key: K, value: AuditFilters[K]) => setDraft((d) => ({ ...d, [key]: value }));

  function submit(event: FormEvent) {
    event.preventDefault();
    const found = filterProblems(FILTER_KEYS, auditQuerySchema, draft);
    setProblems(found);
    if (found.length === 0) onApply({ ...draft, offset: 0 });
  }

  function clear() {
    const empty: AuditFilters = { actor: '', entityType: '', entityId: '', action: '', from: '', to: '', offset: 0 };
    setDraft(empty);
    setProblems([]);
    onApply(empty);
  }

  return (
    <Card>
      <CardContent className="pt-6">
        <form onSubmit={submit} noValidate className="grid gap-4" aria-label="Audit filters">
          <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            <div className="space-y-1.5">
              <Label htmlFor={ids.actor}>Staff email</Label>
              <Input id={ids.actor} value={draft.actor} maxLength={320} placeholder="Part of an email" onChange={(e) => set('actor', e.target.value)} />
            </div>
            <FilterSelect
              id={ids.entityType}
              label="Record kind"
              value={draft.entityType}
              onChange={(v) => set('entityType', v)}
              anyLabel="Any kind"
              options={AUDIT_ENTITY_TYPES}
              labelOf={(type) => AUDIT_ENTITY_LABELS[type]}
            />
            <div className="space-y-1.5">
              <Label htmlFor={ids.entityId}>Record id</Label>
              <Input id={ids.entityId} value={draft.entityId} maxLength={100} onChange={(e) => set('entityId', e.target.value)} />
            </div>
            <FilterSelect
              id={ids.action}
              label="Action"
              value={draft.action}
              onChange={(v) => set('action', v)}
              anyLabel="Any action"
              options={AUDIT_ACTIONS}
              labelOf={(action) => AUDIT_ACTION_LABELS[action]}
            />
            <div className="space-y-1.5">
              <Label htmlFor={ids.from}>From</Label>
              <Input id={ids.from} type="date" value={draft.from} onChange={(e) => set('from', e.target.value)} />
            </div>
            <div className="space-y-1.5">
              <Label htmlFor={ids.to}>To</Label>
              <Input id={ids.to} type="date" value={draft.to} onChange={(e) => set('to', e.target.value)} />
            </div>
          </div>
          <ProblemList problems={problems} />
          <FilterButtons onClear={clear} />
        </form>
      </CardContent>
    </Card>
  );
}

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

function AuditTable({ filters, onPage }: { filters: AuditFilters; onPage: (offset: number) => void }) {
  const page = useQuery({ queryKey: adminKeys.audit(filters), queryFn: () => listAudit(filters), placeholderData: keepPreviousData, staleTime: 0 });
  if (page.isPending) return <p className="text-stone-600">Loading audit trail...</p>;
  if (page.isError) return <p className="text-red-700">{serverMessageOf(page.error) ?? 'Failed to load the audit trail.'}</p>;
  const { entries, total } = page.data;
  if (entries.length === 0) return <p className="py-8 text-center text-stone-600">No audit entries match these filters.</p>;

  return (
    <div className="grid grid-cols-1 gap-4">
      <Card>
        <CardContent className="relative overflow-x-auto p-0">
          <table className="w-full min-w-[60rem] text-left text-sm" aria-busy={page.isFetching}>
            <thead className="border-b border-stone-200 bg-stone-50 text-xs uppercase tracking-wide text-stone-600">
              <tr>
                <th className="px-4 py-3">Time</th>
                <th className="px-4 py-3">Staff</th>
                <th className="px-4 py-3">Action</th>
                <th className="px-4 py-3">Record</th>
                <th className="px-4 py-3">Changes (before → after)</th>
                <th className="px-4 py-3">Address</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-stone-200 align-top">
              {entries.map((entry) => (
                <tr key={entry.id} data-testid={`audit-${entry.id}`}>
                  <td className="whitespace-nowrap px-4 py-3">{formatOrderDate(entry.at)}</td>
                  <td className="px-4 py-3">
                    <span className="block max-w-[14rem] break-all">{entry.actorEmail}</span>
                    {entry.actorRole && <span className="block text-xs text-stone-500">{STAFF_ROLE_LABELS[entry.actorRole]}</span>}
                  </td>
                  <td className="px-4 py-3">{auditActionLabel(entry.action)}</td>
                  <td className="px-4 py-3">
                    <RecordCell entry={entry} />
                  </td>
                  <td className="px-4 py-3">
                    <Changes entry={entry} />
                  </td>
                  <td className="px-4 py-3 text-xs text-stone-600" title={entry.userAgent ?? undefined}>
                    {entry.ip ?? '—'}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </CardContent>
      </Card>
      <div className="flex flex-wrap items-center justify-between gap-2 text-sm text-stone-600">
        <span>
          {filters.offset + 1}–{filters.offset + entries.length} of {total}
        </span>
        {total > AUDIT_PAGE_SIZE && (
          <div className="flex gap-2">
            <Button variant="outline" size="sm" disabled={filters.offset === 0} onClick={() => onPage(Math.max(0, filters.offset - AUDIT_PAGE_SIZE))}>
              Previous
            </Button>
            <Button variant="outline" size="sm" disabled={filters.offset + AUDIT_PAGE_SIZE >= total} onClick={() => onPage(filters.offset + AUDIT_PAGE_SIZE)}>
              Next
            </Button>
          </div>
        )}
      </div>
    </div>
  );
}

function AuditScreen() {
  const [params, setParams] = useSearchParams();
  const filters = filtersOf(params);
  const apply = (next: AuditFilters) => setParams(paramsOf(next));
  return (
    <div className="grid grid-cols-1 gap-6">
      <div className="flex justify-end">
        <Button variant="outline" asChild>
          <a href={auditCsvUrl(filters)} download>
            <Download aria-hidden="true" />
            Download CSV
          </a>
        </Button>
      </div>
      <FilterForm key={params.toString().replace(/(^|&)offset=\d+/, '')} applied={filters} onApply={apply} />
      <AuditTable filters={filters} onPage={(offset) => apply({ ...filters, offset })} />
    </div>
  );
}

/** /admin/audit (owners and managers): who changed what and when, filtered, paged, downloadable as CSV. */
export default function AuditTrailPage() {
  usePageMeta({ title: 'Audit Trail' });
  return (
    <AdminPage title="Audit Trail">
      <RoleGate permission="audit.view">
        <AuditScreen />
      </RoleGate>
    </AdminPage>
  );
}
