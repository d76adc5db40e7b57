import type { BlogPostSummary } from '@nh/shared/contracts/catalog';
import { ArrowRight, Clock } from 'lucide-react';
import { Link } from 'react-router-dom';
import { Badge } from '@/components/ui/badge';
import { Skeleton } from '@/components/ui/skeleton';
import { cn } from '@/lib/utils';
import { formatArticleDate, journalImageUrl, readTimeMinutes } from '../api';

/**
 * A journal card: the whole card is clickable through the title link (one link per card for screen
 * readers). `priority`: the first card's picture is the list's largest paint, so it is fetched at once
 * and first; the others wait until they near the screen.
 */
export function ArticleCard({ post, className, priority = false }: { post: BlogPostSummary; className?: string; priority?: boolean }) {
  const date = formatArticleDate(post.createdAt);
  return (
    <article
      className={cn(
        'group relative flex flex-col overflow-hidden rounded-2xl border border-stone-200/80 bg-white shadow-sm transition duration-300 focus-within:ring-2 focus-within:ring-brand-500 hover:-translate-y-1 hover:shadow-lg',
        className,
      )}
    >
      <div className="aspect-[16/10] overflow-hidden bg-brand-100">
        <img
          src={journalImageUrl(post.image)}
          alt=""
          loading={priority ? 'eager' : 'lazy'}
          fetchPriority={priority ? 'high' : 'auto'}
          width={640}
          height={400}
          className="size-full object-cover transition duration-500 group-hover:scale-105"
        />
      </div>
      <div className="flex flex-1 flex-col p-6">
        <div className="flex flex-wrap items-center gap-x-3 gap-y-2 text-xs text-stone-500">
          {post.category && <Badge variant="secondary">{post.category}</Badge>}
          {date && <time dateTime={post.createdAt}>{date}</time>}
          <span className="inline-flex items-center gap-1">
            <Clock className="size-3.5" aria-hidden="true" />
            {readTimeMinutes(post.readTime)} min read
          </span>
        </div>
        <h2 className="mt-4 text-xl font-semibold leading-snug tracking-tight text-brand-900">
          <Link to={`/journal/${post.slug}`} className="after:absolute after:inset-0 focus-visible:outline-none">
            {post.title}
          </Link>
        </h2>
        {post.excerpt && <p className="mt-3 line-clamp-3 flex-1 text-sm leading-relaxed text-stone-600">{post.excerpt}</p>}
        <span className="mt-5 inline-flex items-center gap-1.5 text-sm font-semibold text-brand-700 group-hover:text-brand-900" aria-hidden="true">
          Read More
          <ArrowRight className="size-4 transition group-hover:translate-x-1" />
        </span>
      </div>
    </article>
  );
}

export function ArticleCardSkeleton() {
  return (
    <div className="overflow-hidden rounded-2xl border border-stone-200/80 bg-white shadow-sm" data-testid="article-card-skeleton">
      <Skeleton className="aspect-[16/10] rounded-none" />
      <div className="space-y-3 p-6">
        <Skeleton className="h-4 w-1/2" />
        <Skeleton className="h-6 w-5/6" />
        <Skeleton className="h-4 w-full" />
        <Skeleton className="h-4 w-2/3" />
      </div>
    </div>
  );
}
