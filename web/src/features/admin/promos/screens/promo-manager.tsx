import { usePageMeta } from '@/lib/use-page-meta';
import { AdminPage } from '../../shell/admin-page';
import { CreatePromoForm } from '../components/create-promo-form';
import { PromoList } from '../components/promo-list';

/** /admin/promos: the Promo Code Manager (the dashboard has /admin: docs/decisions/admin.md). */
export default function PromoManagerPage() {
  usePageMeta({ title: 'Promo Code Manager' });
  return (
    <AdminPage title="Promo Code Manager">
      <div className="grid gap-6">
        <CreatePromoForm />
        <PromoList />
      </div>
    </AdminPage>
  );
}
