import { Home, Leaf, Search } from 'lucide-react';
import { Link } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import { usePageMeta } from '@/lib/use-page-meta';

/** Any path outside the route table (storefront spec §2); the two sentences are the spec's. */
export default function NotFoundPage() {
  usePageMeta({ title: '404 Page Not Found' });
  return (
    <div className="flex min-h-[80vh] items-center justify-center bg-gradient-to-b from-cream to-brand-100/60 px-4 pb-20 pt-28">
      <div className="w-full max-w-lg rounded-3xl bg-white px-6 py-12 text-center shadow-sm sm:px-12">
        <span className="mx-auto inline-flex size-16 items-center justify-center rounded-full bg-brand-100 text-brand-700">
          <Leaf className="size-8" aria-hidden="true" />
        </span>
        <h1 className="mt-6 text-3xl font-bold tracking-tight text-brand-900">404 Page Not Found</h1>
        <p className="mt-4 text-stone-600">Did you forget to add the page to the router?</p>
        <div className="mt-8 flex flex-wrap justify-center gap-3">
          <Button asChild>
            <Link to="/">
              <Home aria-hidden="true" />
              Back to Home
            </Link>
          </Button>
          <Button asChild variant="outline">
            <Link to="/shop">
              <Search aria-hidden="true" />
              Browse the Shop
            </Link>
          </Button>
        </div>
      </div>
    </div>
  );
}
