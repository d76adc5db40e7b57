import { useSearchParams } from 'react-router-dom';
import { usePageMeta } from '@/lib/use-page-meta';
import { AdminPage } from '../../shell/admin-page';
import { reviewFiltersOf, reviewParamsOf, ReviewModeration } from '../components/review-moderation';

function ReviewsScreen() {
  const [params, setParams] = useSearchParams();
  return <ReviewModeration filters={reviewFiltersOf(params)} onChange={(filters) => setParams(reviewParamsOf(filters))} />;
}

/** /admin/reviews (owners and managers): every review, hidden ones too; hide, show or delete. */
export default function ReviewsPage() {
  usePageMeta({ title: 'Reviews' });
  return (
    <AdminPage title="Reviews">
      <ReviewsScreen />
    </AdminPage>
  );
}
