/** The audit trail (GET /api/admin/audit, filtered and paged; the same filters as a CSV download). */
import type { AuditAction, AuditEntityType, AuditPage } from '@nh/shared/contracts/audit';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest, readJson } from '@/lib/query-client';
import { ADMIN_KEY } from '../shell/api';
import { filterSearch, pagedSearch } from '../ui/filter-params';

/** The audit screen's filters as the URL and the API spell them (empty means "any"). */
export interface AuditFilters {
  actor: string;
  entityType: AuditEntityType | '';
  entityId: string;
  action: AuditAction | '';
  from: string;
  to: string;
  offset: number;
}

export const AUDIT_FILTER_KEYS = ['actor', 'entityType', 'entityId', 'action', 'from', 'to'] as const;
export const NO_AUDIT_FILTERS: AuditFilters = { actor: '', entityType: '', entityId: '', action: '', from: '', to: '', offset: 0 };
export const AUDIT_PAGE_SIZE = 50;

const listAudit = async (filters: AuditFilters) =>
  readJson<AuditPage>(await apiRequest('GET', `/api/admin/audit?${pagedSearch(AUDIT_FILTER_KEYS, filters, AUDIT_PAGE_SIZE)}`));

/** The CSV download, a plain link (the server streams the file with the session cookie). */
export const auditCsvUrl = (filters: AuditFilters) => {
  const search = filterSearch(AUDIT_FILTER_KEYS, filters).toString();
  return `/api/admin/audit.csv${search ? `?${search}` : ''}`;
};

const AUDIT = [...ADMIN_KEY, 'audit'] as const;

export const auditQueries = {
  page: (filters: AuditFilters) => queryOptions({ queryKey: [...AUDIT, filters], queryFn: () => listAudit(filters), staleTime: 0 }),
};
