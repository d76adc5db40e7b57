/** The audit trail's filters: staff email, record kind and id, action and dates, in the URL (a filtered view can be linked to). */
import {
  AUDIT_ACTION_LABELS,
  AUDIT_ACTIONS,
  AUDIT_ENTITY_LABELS,
  AUDIT_ENTITY_TYPES,
  auditQuerySchema,
  type AuditAction,
  type AuditEntityType,
} from '@nh/shared/contracts/audit';
import { useId } from 'react';
import { Card, CardContent } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { FilterButtons, FilterSelect, ProblemList } from '../../ui/filter-form';
import { filterParams } from '../../ui/filter-params';
import { useFilterDraft } from '../../ui/use-filter-draft';
import { AUDIT_FILTER_KEYS, NO_AUDIT_FILTERS, type AuditFilters } from '../api';

/** The filters of the URL (so a filtered view can be linked to); unknown kinds or actions read as "any". */
export function auditFiltersOf(params: URLSearchParams): AuditFilters {
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

export const auditParamsOf = (filters: AuditFilters): URLSearchParams => filterParams(AUDIT_FILTER_KEYS, filters);

export function AuditFilterForm({ applied, onApply }: { applied: AuditFilters; onApply: (filters: AuditFilters) => void }) {
  const ids = { actor: useId(), entityType: useId(), entityId: useId(), action: useId(), from: useId(), to: useId() };
  const { draft, set, problems, submit, clear } = useFilterDraft({
    applied,
    empty: NO_AUDIT_FILTERS,
    keys: AUDIT_FILTER_KEYS,
    schema: auditQuerySchema,
    onApply: (filters) => onApply({ ...filters, offset: 0 }),
  });

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
