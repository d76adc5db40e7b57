import { HomePage, prefetchHome } from '@/features/catalog/routes/home';
import { NewsletterForm } from '@/features/newsletter/components/newsletter-form';

export const prefetch = prefetchHome;

/** `/`: the catalog's home sections with the newsletter sign-up at the foot (two features, composed here). */
export default function HomeRoute() {
  return <HomePage newsletter={<NewsletterForm />} />;
}
