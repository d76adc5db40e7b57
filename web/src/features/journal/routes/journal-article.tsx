import type { BlogPost } from '@nh/shared/contracts/catalog';
import { ArrowLeft, ArrowRight, Calendar, Clock, Leaf, Link2, UserRound } from 'lucide-react';
import { Link, useParams } from 'react-router-dom';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import type { Prefetch } from '@/lib/prefetch';
import { usePageMeta } from '@/lib/use-page-meta';
import { formatArticleDate, journalArticleQuery, journalImageUrl, readTimeMinutes, useJournalArticle } from '../api';
import { ArticleFaq } from '../components/article-faq';
import { SafeLink } from '../markup/safe-link';
import { ArticleMarkup } from '../markup/render';

export const prefetch: Prefetch = (queryClient, { slug = '' }) => queryClient.prefetchQuery(journalArticleQuery(slug));

export default function JournalArticlePage() {
  const { slug = '' } = useParams();
  const { data: post, isPending, isError } = useJournalArticle(slug);

  usePageMeta(
    post
      ? { title: post.metaTitle ?? post.title, description: post.metaDescription ?? post.excerpt ?? undefined, canonical: `/journal/${post.slug}` }
      : { title: isError ? 'Article Not Found' : 'The Journal' },
  );

  return (
    <div className="px-4 pb-24 pt-24 sm:px-6 md:pt-32 lg:px-8">
      {isPending ? <ArticleSkeleton /> : post ? <Article post={post} /> : <ArticleNotFound />}
    </div>
  );
}

function BackToJournal() {
  return (
    <Button asChild variant="ghost" className="-ml-3 bg-white/70 backdrop-blur-sm">
      <Link to="/journal">
        <ArrowLeft aria-hidden="true" />
        Back to Journal
      </Link>
    </Button>
  );
}

function Article({ post }: { post: BlogPost }) {
  const date = formatArticleDate(post.createdAt);
  return (
    <article className="mx-auto max-w-3xl">
      <BackToJournal />
      <div className="mt-4 overflow-hidden rounded-3xl bg-white shadow-sm">
        <header className="px-6 pb-8 pt-10 sm:px-12 sm:pt-12">
          {post.category && <Badge>{post.category}</Badge>}
          <h1 className="mt-4 text-balance text-3xl font-bold leading-tight tracking-tight text-brand-900 sm:text-4xl md:text-5xl">{post.title}</h1>
          {post.excerpt && <p className="mt-5 text-pretty text-lg leading-relaxed text-stone-600 sm:text-xl">{post.excerpt}</p>}
          <dl className="mt-6 flex flex-wrap items-center gap-x-6 gap-y-2 text-sm text-stone-600">
            {post.author && (
              <div className="inline-flex items-center gap-1.5">
                <dt>
                  <UserRound className="size-4 text-brand-500" aria-hidden="true" />
                  <span className="sr-only">Author</span>
                </dt>
                <dd className="font-medium text-stone-800">{post.author}</dd>
              </div>
            )}
            <div className="inline-flex items-center gap-1.5">
              <dt>
                <Clock className="size-4 text-brand-500" aria-hidden="true" />
                <span className="sr-only">Read time</span>
              </dt>
              <dd>{readTimeMinutes(post.readTime)} min read</dd>
            </div>
            {date && (
              <div className="inline-flex items-center gap-1.5">
                <dt>
                  <Calendar className="size-4 text-brand-500" aria-hidden="true" />
                  <span className="sr-only">Published</span>
                </dt>
                <dd>
                  <time dateTime={post.createdAt}>{date}</time>
                </dd>
              </div>
            )}
          </dl>
        </header>
        <img src={journalImageUrl(post.image)} alt="" className="aspect-[16/9] w-full bg-brand-100 object-cover" />
        <div className="px-6 py-10 sm:px-12">
          <ArticleMarkup source={post.content} />

          {post.internalLinks.length > 0 && (
            <section aria-labelledby="related-resources" className="mt-14 rounded-2xl bg-cream p-6 sm:p-8">
              <h2 id="related-resources" className="flex items-center gap-2 text-xl font-semibold text-brand-900">
                <Link2 className="size-5 text-brand-500" aria-hidden="true" />
                Related Resources
              </h2>
              <ul className="mt-4 grid gap-3 sm:grid-cols-2">
                {post.internalLinks.map((link, index) => (
                  <li key={index}>
                    <SafeLink
                      href={link.href}
                      className="flex h-full items-center justify-between gap-3 rounded-xl border border-brand-100 bg-white px-4 py-3 text-sm font-medium text-brand-900 transition hover:border-brand-500 hover:bg-brand-100/40"
                    >
                      {link.anchor}
                      <ArrowRight className="size-4 shrink-0 text-brand-500" aria-hidden="true" />
                    </SafeLink>
                  </li>
                ))}
              </ul>
            </section>
          )}

          {post.faqs.length > 0 && (
            <section aria-labelledby="article-faq" className="mt-14">
              <h2 id="article-faq" className="mb-4 text-2xl font-semibold tracking-tight text-brand-900">
                Frequently Asked Questions
              </h2>
              <ArticleFaq faqs={post.faqs} />
            </section>
          )}
        </div>
      </div>

      <aside className="mt-10 overflow-hidden rounded-3xl bg-gradient-to-br from-brand-900 via-brand-700 to-brand-500 px-6 py-10 text-center text-white shadow-sm sm:px-12">
        <Leaf className="mx-auto size-8 text-brand-100" aria-hidden="true" />
        <h2 className="mt-3 text-2xl font-bold tracking-tight sm:text-3xl">Ready for a cleaner, kinder home?</h2>
        <p className="mx-auto mt-3 max-w-xl text-brand-100">
          Our probiotic cleaners are plant-based, family-safe and keep working long after you wipe.
        </p>
        <div className="mt-6 flex flex-wrap justify-center gap-3">
          <Button asChild size="lg" className="bg-white text-brand-900 hover:bg-brand-100">
            <Link to="/shop">Shop Now</Link>
          </Button>
          <Button asChild size="lg" variant="outline" className="border-white/70 bg-transparent text-white hover:bg-white/10">
            <Link to="/shop?filter=starter">Shop Starter Kits</Link>
          </Button>
        </div>
      </aside>

      <nav aria-label="Journal" className="mt-10 flex flex-wrap items-center justify-between gap-3">
        <BackToJournal />
        <Button asChild variant="outline">
          <Link to="/journal">
            View All Articles
            <ArrowRight aria-hidden="true" />
          </Link>
        </Button>
      </nav>
    </article>
  );
}

function ArticleSkeleton() {
  return (
    <div role="status" aria-label="Loading article" className="mx-auto max-w-3xl">
      <Skeleton className="h-10 w-40 rounded-full" />
      <div className="mt-4 space-y-5 rounded-3xl bg-white px-6 py-10 shadow-sm sm:px-12">
        <Skeleton className="h-6 w-24 rounded-full" />
        <Skeleton className="h-12 w-full" />
        <Skeleton className="h-12 w-3/4" />
        <Skeleton className="h-5 w-1/2" />
        <Skeleton className="aspect-[16/9] w-full rounded-2xl" />
        {Array.from({ length: 6 }, (_, i) => (
          <Skeleton key={i} className="h-4 w-full" />
        ))}
      </div>
    </div>
  );
}

function ArticleNotFound() {
  return (
    <div className="mx-auto mt-8 max-w-xl rounded-3xl bg-white px-6 py-14 text-center shadow-sm sm:px-12">
      <h1 className="text-3xl font-bold tracking-tight text-brand-900">Article Not Found</h1>
      <p className="mt-4 text-stone-600">The article you're looking for doesn't exist or may have been moved.</p>
      <div className="mt-8 flex justify-center">
        <Button asChild>
          <Link to="/journal">
            <ArrowLeft aria-hidden="true" />
            Back to Journal
          </Link>
        </Button>
      </div>
    </div>
  );
}
