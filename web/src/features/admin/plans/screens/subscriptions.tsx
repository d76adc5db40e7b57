import { AT_RISK_REASONS, type AtRiskReason } from '@nh/shared/contracts/admin-subscriptions';
import { useSearchParams } from 'react-router-dom';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { usePageMeta } from '@/lib/use-page-meta';
import { AdminPage } from '../../shell/admin-page';
import { useCan } from '../../shell/role-gate';
import { AtRiskList } from '../components/at-risk-list';
import { BulkSwapPanel } from '../components/bulk-swap-panel';
import { SubscriptionExportPanel } from '../components/subscription-export-panel';
import { planFiltersOf, planParamsOf, PlanTable } from '../components/plan-table';

type Tab = 'all' | 'at-risk' | 'bulk-swap';

function PlansScreen() {
  const [params, setParams] = useSearchParams();
  const canSwap = useCan('subscriptions.bulkSwap');
  const canExport = useCan('exports.run');
  const tabParam = params.get('tab');
  const tab: Tab = tabParam === 'at-risk' ? 'at-risk' : tabParam === 'bulk-swap' && canSwap ? 'bulk-swap' : 'all';
  const reasonParam = params.get('reason') ?? '';
  const reason = (AT_RISK_REASONS as readonly string[]).includes(reasonParam) ? (reasonParam as AtRiskReason) : '';
  const offset = Math.max(0, Number.parseInt(params.get('offset') ?? '0', 10) || 0);

  const showTab = (next: string) => setParams(next === 'at-risk' || next === 'bulk-swap' ? { tab: next } : {});
  const showAtRisk = (nextReason: AtRiskReason | '', nextOffset: number) => {
    const next = new URLSearchParams({ tab: 'at-risk' });
    if (nextReason) next.set('reason', nextReason);
    if (nextOffset > 0) next.set('offset', String(nextOffset));
    setParams(next);
  };

  return (
    <Tabs value={tab} onValueChange={showTab}>
      <TabsList aria-label="Plans">
        <TabsTrigger value="all">All plans</TabsTrigger>
        <TabsTrigger value="at-risk">At risk</TabsTrigger>
        {canSwap && <TabsTrigger value="bulk-swap">Bulk swap</TabsTrigger>}
      </TabsList>
      <TabsContent value="all" className="grid gap-6">
        <PlanTable filters={planFiltersOf(params)} onApply={(filters) => setParams(planParamsOf(filters))} />
        {canExport && <SubscriptionExportPanel />}
      </TabsContent>
      <TabsContent value="at-risk">
        <AtRiskList reason={reason} offset={offset} onChange={showAtRisk} />
      </TabsContent>
      {canSwap && (
        <TabsContent value="bulk-swap">
          <BulkSwapPanel />
        </TabsContent>
      )}
    </Tabs>
  );
}

/** /admin/subscriptions (owners, managers, support): every Subscribe & Save plan, and those at risk. */
export default function SubscriptionsPage() {
  usePageMeta({ title: 'Subscriptions' });
  return (
    <AdminPage title="Subscriptions">
      <PlansScreen />
    </AdminPage>
  );
}
