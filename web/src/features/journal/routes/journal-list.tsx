import { LIMITS } from '@nh/shared/constants';
import { BookOpen } from 'lucide-react';
import { Link } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import type { Prefetch } from '@/lib/prefetch';
import { usePageMeta } from '@/lib/use-page-meta';
import { journalPostsQuery, useJournalPosts } from '../api';
import { ArticleCard, ArticleCardSkeleton } from '../components/article-card';

export const prefetch: Prefetch = (queryClient) => queryClient.prefetchQuery(journalPostsQuery);

export default function JournalListPage() {
  usePageMeta({
    title: 'The Journal',
    description: 'Guides, routines and stories about probiotic cleaning, safer ingredients and a lower-waste home.',
    canonical: '/journal',
  });
  const { data: posts, isPending } = useJournalPosts();

  return (
    <div className="px-4 pb-24 pt-28 sm:px-6 md:pt-36 lg:px-8">
      <header className="mx-auto max-w-3xl rounded-3xl bg-white/85 px-6 py-10 text-center shadow-sm backdrop-blur-sm sm:px-10">
        <p className="text-sm font-semibold uppercase tracking-widest text-brand-700">The Journal</p>
        <h1 className="mt-3 text-balance text-4xl font-bold tracking-tight text-brand-900 sm:text-5xl">Stories for a Healthier Home</h1>
        <p className="mx-auto mt-4 max-w-2xl text-pretty text-lg text-stone-600">
          Practical guides on probiotic cleaning, honest ingredient talk and small habits that add up to a cleaner planet.
        </p>
      </header>

      <section aria-labelledby="journal-articles" className="mx-auto mt-14 max-w-7xl">
        <h2 id="journal-articles" className="sr-only">
          Articles
        </h2>
        {isPending ? (
          <div role="status" aria-label="Loading articles" className="grid gap-8 sm:grid-cols-2 lg:grid-cols-3">
            {Array.from({ length: LIMITS.placeholders.journal }, (_, i) => (
              <ArticleCardSkeleton key={i} />
            ))}
          </div>
        ) : posts && posts.length > 0 ? (
          <div className="grid gap-8 sm:grid-cols-2 lg:grid-cols-3">
            {posts.map((post, i) => (
              <ArticleCard key={post.id} post={post} priority={i === 0} />
            ))}
          </div>
        ) : (
          <div className="mx-auto flex max-w-xl flex-col items-center rounded-3xl bg-white/90 px-6 py-14 text-center shadow-sm">
            <BookOpen className="size-10 text-brand-500" aria-hidden="true" />
            <p className="mt-4 text-lg font-semibold text-brand-900">No articles available at the moment</p>
            <p className="mt-2 text-sm text-stone-600">New stories are on their way. In the meantime, explore our products.</p>
            <Button asChild className="mt-6">
              <Link to="/shop">Shop Now</Link>
            </Button>
          </div>
        )}
      </section>
    </div>
  );
}
