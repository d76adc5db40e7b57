/** Journal data: GET /api/blog (cards) and GET /api/blog/{slug} (one article). */
import { LIMITS } from '@nh/shared/constants';
import type { BlogPost, BlogPostSummary } from '@nh/shared/contracts/catalog';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { formatUtcLongDate } from '@/lib/format-date';
import { ApiError, apiFetchOf, type ApiFetch } from '@/lib/query-client';
import { findSampleArticle, SAMPLE_ARTICLES } from '@/lib/sample-articles';

export const BLOG_QUERY_KEY = ['/api/blog'] as const;

export const journalPostsQuery = queryOptions<BlogPostSummary[]>({ queryKey: BLOG_QUERY_KEY });

/** Journal cards; an empty list from the API shows the three built-in sample articles. */
export function useJournalPosts() {
  return useQuery({ ...journalPostsQuery, select: (posts) => (posts.length === 0 ? SAMPLE_ARTICLES : posts) });
}

/** A non-OK answer is the error 'Article not found' (storefront spec §7). */
export async function fetchArticle(slug: string, apiFetch: ApiFetch): Promise<BlogPost> {
  const res = await apiFetch(`/api/blog/${encodeURIComponent(slug)}`);
  if (!res.ok) {
    // The built-in samples have no database row: their cards must still lead to a readable page.
    const sample = findSampleArticle(slug);
    if (sample) return sample;
    throw new ApiError(res.status, 'Article not found', await res.text());
  }
  return (await res.json()) as BlogPost;
}

export const journalArticleQuery = (slug: string) =>
  queryOptions<BlogPost>({ queryKey: [...BLOG_QUERY_KEY, slug], queryFn: ({ client }) => fetchArticle(slug, apiFetchOf(client)) });

export function useJournalArticle(slug: string) {
  return useQuery(journalArticleQuery(slug));
}

/** Image file names are served from /api/public/{file}; full paths and URLs are used as given. */
export function journalImageUrl(image: string | null | undefined): string {
  if (!image) return '/api/public/hero-default.svg';
  if (image.startsWith('/') || /^https?:\/\//i.test(image)) return image;
  return `/api/public/${image}`;
}

export function readTimeMinutes(readTime: number | null | undefined): number {
  return typeof readTime === 'number' && readTime > 0 ? readTime : LIMITS.blogFallbackReadTime;
}

/**
 * "2025-03-04T09:00:00.000Z" → "March 4, 2025" (its UTC day: the server renders it too, and must write
 * what every browser shows); an unreadable date shows nothing.
 */
export function formatArticleDate(iso: string | null | undefined): string {
  if (!iso) return '';
  return formatUtcLongDate(new Date(iso));
}
