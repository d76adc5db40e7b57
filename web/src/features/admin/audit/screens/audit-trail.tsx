import { Download } from 'lucide-react';
import { useSearchParams } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import { usePageMeta } from '@/lib/use-page-meta';
import { AdminPage } from '../../shell/admin-page';
import { auditCsvUrl, type AuditFilters } from '../api';
import { AuditFilterForm, auditFiltersOf, auditParamsOf } from '../components/audit-filters';
import { AuditTable } from '../components/audit-table';

function AuditScreen() {
  const [params, setParams] = useSearchParams();
  const filters = auditFiltersOf(params);
  const apply = (next: AuditFilters) => setParams(auditParamsOf(next));
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
      <AuditFilterForm key={params.toString().replace(/(^|&)offset=\d+/, '')} applied={filters} onApply={apply} />
      <AuditTable filters={filters} onPage={(offset) => apply({ ...filters, offset })} />
    </div>
  );
}

/** /admin/audit (owners and managers): who changed what and when, filtered, paged, downloadable as CSV. */
export default function AuditTrailPage() {
  usePageMeta({ title: 'Audit Trail' });
  return (
    <AdminPage title="Audit Trail">
      <AuditScreen />
    </AdminPage>
  );
}
