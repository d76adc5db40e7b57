import { LIMITS, MONEY_BACK_GUARANTEE_DAYS, RATING_CLAIM, SHOP } from '@nh/shared/constants';
import { shippingClaim } from '@nh/shared/shipping-claims';
import { HOME_ZONE, type ShippingZone } from '@nh/shared/shipping-rules';
import { useQuery } from '@tanstack/react-query';
import { Award, BadgeCheck, Leaf, Rabbit, ShieldCheck, Sprout, Star, Truck } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Hero } from '@/components/hero';
import { Skeleton } from '@/components/ui/skeleton';
import { formatCount } from '@/lib/format-count';
import type { Prefetch } from '@/lib/prefetch';
import { usePageMeta } from '@/lib/use-page-meta';
import { blogPostsQuery, categoriesQuery, impactQuery } from '../api';
import { ImpactCounters } from '../components/impact-counters';
import { StarRating } from '../components/star-rating';
import {
  BUILT_IN_CATEGORIES,
  COMMUNITY_PHOTOS,
  COMMUNITY_PROFILE_URL,
  publicImage,
  SAMPLE_ARTICLES,
  TESTIMONIALS,
  TRUST_BADGES,
} from '../home-content';

function SectionHeading({ id, eyebrow, title, children }: { id: string; eyebrow: string; title: string; children?: ReactNode }) {
  return (
    <div className="mx-auto max-w-2xl text-center">
      <p className="text-sm font-semibold uppercase tracking-widest text-brand-700">{eyebrow}</p>
      <h2 id={id} className="mt-2 text-3xl font-bold tracking-tight text-brand-900 md:text-4xl">
        {title}
      </h2>
      {children && <p className="mt-3 text-stone-600">{children}</p>}
    </div>
  );
}

function CategoryGrid() {
  const { data, isLoading } = useQuery(categoriesQuery);
  const categories = (data && data.length > 0 ? data.filter((c) => c.slug !== 'starter-kits') : BUILT_IN_CATEGORIES).slice(
    0,
    LIMITS.homeCategories,
  );
  return (
    <section aria-labelledby="categories-heading" className="py-16 md:py-24">
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <SectionHeading id="categories-heading" eyebrow="Shop by room" title="Shop by Category">
          Probiotic power for every corner of your home.
        </SectionHeading>
        <ul className="mt-10 grid grid-cols-2 gap-4 md:gap-6 lg:grid-cols-4">
          {isLoading
            ? Array.from({ length: LIMITS.homeCategories }, (_, i) => (
                <li key={i}>
                  <Skeleton className="aspect-[4/5] w-full rounded-2xl" />
                </li>
              ))
            : categories.map((c) => (
                <li key={c.slug}>
                  <Link
                    to={`/shop/${c.slug}`}
                    className="group relative block aspect-[4/5] overflow-hidden rounded-2xl bg-brand-100 shadow-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:ring-offset-2"
                  >
                    <img
                      src={publicImage(c.image, '/api/public/hero-default.svg')}
                      alt=""
                      loading="lazy"
                      className="absolute inset-0 size-full object-cover transition duration-500 group-hover:scale-105"
                    />
                    <div
                      className="absolute inset-0 bg-gradient-to-t from-brand-900/85 via-brand-900/20 to-transparent"
                      aria-hidden="true"
                    />
                    <div className="absolute inset-x-0 bottom-0 p-4 text-white md:p-6">
                      <h3 className="text-lg font-bold md:text-2xl">{c.name}</h3>
                      <span className="mt-1 inline-block text-sm text-brand-100 group-hover:underline">Shop {c.name} →</span>
                    </div>
                  </Link>
                </li>
              ))}
        </ul>
      </div>
    </section>
  );
}

const BADGE_ICONS = {
  'EWG Verified': BadgeCheck,
  'EPA Safer Choice': ShieldCheck,
  'Cruelty Free': Rabbit,
  'Carbon Neutral': Leaf,
} as const;

function TrustAndTestimonials() {
  return (
    <section aria-labelledby="trust-heading" className="bg-cream py-16 md:py-24">
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <SectionHeading id="trust-heading" eyebrow="Trusted by families" title="Certified safe. Loved by parents.">
          Rated {RATING_CLAIM.average} out of 5 from {formatCount(RATING_CLAIM.count)} reviews.
        </SectionHeading>
        <ul className="mt-10 grid grid-cols-2 gap-4 md:grid-cols-4" aria-label="Certifications">
          {TRUST_BADGES.map((badge) => {
            const Icon = BADGE_ICONS[badge];
            return (
              <li key={badge} className="flex flex-col items-center gap-3 rounded-2xl bg-white p-6 text-center shadow-sm">
                <span className="flex size-12 items-center justify-center rounded-full bg-brand-100 text-brand-700">
                  <Icon className="size-6" aria-hidden="true" />
                </span>
                <span className="font-semibold text-brand-900">{badge}</span>
              </li>
            );
          })}
        </ul>
        <ul className="mt-12 grid gap-6 md:grid-cols-3" aria-label="Testimonials">
          {TESTIMONIALS.map((t) => (
            <li key={t.id}>
              <figure className="flex h-full flex-col rounded-2xl bg-white p-6 shadow-sm">
                <div className="flex items-center justify-between">
                  <StarRating rating={t.rating} size="md" />
                  {t.verified && (
                    <span className="inline-flex items-center gap-1 text-xs font-semibold text-brand-700">
                      <BadgeCheck className="size-4" aria-hidden="true" /> Verified buyer
                    </span>
                  )}
                </div>
                <blockquote className="mt-4 flex-1 text-stone-700">“{t.quote}”</blockquote>
                <figcaption className="mt-6 flex items-center gap-3">
                  <img src={t.avatar} alt="" className="size-11 rounded-full bg-brand-100" loading="lazy" />
                  <span>
                    <span className="block font-semibold text-brand-900">{t.author}</span>
                    <span className="block text-sm text-stone-500">{t.title}</span>
                  </span>
                </figcaption>
              </figure>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

function CommunityGrid() {
  return (
    <section aria-labelledby="community-heading" className="py-16 md:py-24">
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <SectionHeading id="community-heading" eyebrow="#NurtureYourHome" title="From our community" />
        <ul className="mt-10 grid grid-cols-2 gap-3 md:grid-cols-4 md:gap-4">
          {COMMUNITY_PHOTOS.map((photo) => (
            <li key={photo.id}>
              <figure className="group relative aspect-square overflow-hidden rounded-2xl bg-brand-100">
                <img
                  src={photo.image}
                  alt={`${photo.username}: ${photo.caption}`}
                  loading="lazy"
                  className="size-full object-cover transition duration-500 group-hover:scale-105"
                />
                <figcaption className="absolute inset-x-0 bottom-0 bg-gradient-to-t from-black/70 to-transparent p-3 text-sm text-white">
                  <span className="block font-semibold">{photo.username}</span>
                  <span className="block text-white/85">{photo.caption}</span>
                </figcaption>
              </figure>
            </li>
          ))}
        </ul>
        <p className="mt-8 text-center">
          <a
            href={COMMUNITY_PROFILE_URL}
            target="_blank"
            rel="noopener noreferrer"
            className="font-semibold text-brand-700 underline underline-offset-4 hover:text-brand-900"
          >
            Follow us on Instagram<span className="sr-only"> (opens in a new tab)</span>
          </a>
        </p>
      </div>
    </section>
  );
}

function LatestArticles() {
  const { data, isLoading } = useQuery(blogPostsQuery);
  const posts = (data && data.length > 0 ? data : SAMPLE_ARTICLES).slice(0, LIMITS.homeBlogCards);
  return (
    <section aria-labelledby="journal-heading" className="bg-white/70 py-16 md:py-24">
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <div className="flex flex-col items-center justify-between gap-4 sm:flex-row sm:items-end">
          <div>
            <p className="text-sm font-semibold uppercase tracking-widest text-brand-700">The Journal</p>
            <h2 id="journal-heading" className="mt-2 text-3xl font-bold tracking-tight text-brand-900 md:text-4xl">
              Latest from the Journal
            </h2>
          </div>
          <Link to="/journal" className="font-semibold text-brand-700 underline-offset-4 hover:underline">
            View all articles →
          </Link>
        </div>
        <ul className="mt-10 grid gap-6 md:grid-cols-2 lg:grid-cols-3">
          {isLoading
            ? Array.from({ length: LIMITS.homeBlogCards }, (_, i) => (
                <li key={i} className={i === 2 ? 'md:hidden lg:block' : undefined}>
                  <Skeleton className="aspect-[16/10] w-full rounded-2xl" />
                  <Skeleton className="mt-4 h-5 w-3/4" />
                  <Skeleton className="mt-2 h-4 w-full" />
                </li>
              ))
            : posts.map((post, i) => (
                <li key={post.slug} className={i === 2 ? 'md:hidden lg:block' : undefined} data-testid="journal-card">
                  <article className="group h-full overflow-hidden rounded-2xl bg-white shadow-sm ring-1 ring-stone-200 transition hover:shadow-lg">
                    <Link
                      to={`/journal/${post.slug}`}
                      className="block focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-brand-500"
                    >
                      <img
                        src={publicImage(post.image, '/api/public/hero-default.svg')}
                        alt=""
                        loading="lazy"
                        className="aspect-[16/10] w-full object-cover"
                      />
                      <div className="p-5">
                        <p className="text-xs font-semibold uppercase tracking-wider text-brand-700">
                          {post.category} · {post.readTime ?? LIMITS.blogFallbackReadTime} min read
                        </p>
                        <h3 className="mt-2 text-lg font-bold text-brand-900 group-hover:underline">{post.title}</h3>
                        {post.excerpt && <p className="mt-2 line-clamp-3 text-sm text-stone-600">{post.excerpt}</p>}
                      </div>
                    </Link>
                  </article>
                </li>
              ))}
        </ul>
      </div>
    </section>
  );
}

/**
 * The home page's sections. The newsletter sign-up at its foot belongs to another feature, so the app
 * layer hands it in (`app/routes/home.tsx`).
 */
/** The home page's calls: categories, the latest articles, the impact counters. */
export const prefetchHome: Prefetch = (queryClient) =>
  Promise.all([
    queryClient.prefetchQuery(categoriesQuery),
    queryClient.prefetchQuery(blogPostsQuery),
    queryClient.prefetchQuery(impactQuery),
  ]);

/** The home page; the hero's free-shipping claim is the shipping rule's (the home zone unless told). */
export function HomePage({ newsletter, shippingZone = HOME_ZONE }: { newsletter?: ReactNode; shippingZone?: ShippingZone }) {
  const shipping = shippingClaim(shippingZone);
  usePageMeta({
    title: `${SHOP.name} — Probiotic, family-safe cleaning`,
    description: 'Probiotic, non-toxic household cleaners that are safe for your family and the planet.',
    canonical: '/',
  });
  return (
    <>
      <Hero
        size="lg"
        image="/api/public/hero-default.svg"
        overlay="brand"
        eyebrow={
          <span className="inline-flex items-center gap-2">
            <Award className="size-4" aria-hidden="true" /> Award-winning probiotic cleaners
          </span>
        }
        title="Clean that's safe for your family and the planet"
        subtitle="Probiotic, plant-powered cleaners that keep working after you wipe. No harsh fumes, no toxic residue, no guilt."
        actions={[
          { label: 'shop starter kits', to: '/shop' },
          // Link text that says where it goes (Lighthouse's link-text audit refuses a bare 'learn more').
          { label: 'learn more about our impact', to: '/impact' },
        ]}
      >
        <ul className="mt-8 flex flex-wrap gap-x-6 gap-y-2 text-sm text-white/90">
          <li className="flex items-center gap-2">
            <Star className="size-4 fill-amber-300 text-amber-300" aria-hidden="true" /> {RATING_CLAIM.average}/5 from{' '}
            {formatCount(RATING_CLAIM.count)} reviews
          </li>
          {shipping.freeOver && (
            <li className="flex items-center gap-2">
              <Truck className="size-4" aria-hidden="true" /> Free shipping on orders {shipping.freeOver}
            </li>
          )}
          <li className="flex items-center gap-2">
            <Sprout className="size-4" aria-hidden="true" /> {MONEY_BACK_GUARANTEE_DAYS}-day money-back guarantee
          </li>
        </ul>
      </Hero>
      <CategoryGrid />
      <ImpactCounters />
      <TrustAndTestimonials />
      <CommunityGrid />
      <LatestArticles />
      {newsletter}
    </>
  );
}
