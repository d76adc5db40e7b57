/** Fixed page content of the home page (storefront §2, §3): testimonials, community photos, fallbacks. */

export interface Testimonial {
  id: number;
  rating: number;
  verified: boolean;
  quote: string;
  author: string;
  title: string;
  avatar: string;
}

export const TESTIMONIALS: Testimonial[] = [
  {
    id: 1,
    rating: 5,
    verified: true,
    quote: 'I finally have cleaners I do not have to lock away from my toddler. The bathroom smells fresh for days, not just hours.',
    author: 'Jessica M.',
    title: 'Mom of two, Austin TX',
    avatar: '/api/public/avatar-1.svg',
  },
  {
    id: 2,
    rating: 5,
    verified: true,
    quote: 'Our septic guy noticed the difference before we told him we had switched. The laundry pods are gentle on my eczema too.',
    author: 'David R.',
    title: 'Homeowner, Portland OR',
    avatar: '/api/public/avatar-2.svg',
  },
  {
    id: 3,
    rating: 5,
    verified: true,
    quote: 'The starter kit replaced six bottles under my sink. Refills arrive on time and the glass cleaner is genuinely streak-free.',
    author: 'Priya S.',
    title: 'Subscriber since 2023',
    avatar: '/api/public/avatar-3.svg',
  },
];

export interface CommunityPhoto {
  id: number;
  image: string;
  username: string;
  caption: string;
}

export const COMMUNITY_PHOTOS: CommunityPhoto[] = [1, 2, 3, 4].map((n) => ({
  id: n,
  image: `/api/public/community-${n}.svg`,
  username: ['@greenhomejess', '@septicsafe.dave', '@zerowaste.priya', '@littlehelpers'][n - 1]!,
  caption: ['Sunday reset, no fumes.', 'Refill day!', 'Under-sink glow up', 'Tiny hands, safe spray'][n - 1]!,
}));

export const COMMUNITY_PROFILE_URL = 'https://www.instagram.com/nurturehome';

export const TRUST_BADGES = ['EWG Verified', 'EPA Safer Choice', 'Cruelty Free', 'Carbon Neutral'] as const;

/** Shown when GET /api/categories answers an empty list. */
export const BUILT_IN_CATEGORIES = [
  {
    id: -1,
    slug: 'kitchen',
    name: 'Kitchen',
    description: 'Food-safe cleaners for counters, dishes and produce.',
    image: 'category-kitchen.svg',
  },
  { id: -2, slug: 'bathroom', name: 'Bathroom', description: 'Probiotic toilet, sink and drain care.', image: 'category-bathroom.svg' },
  { id: -3, slug: 'laundry', name: 'Laundry', description: 'Gentle pods, boosters and stain removers.', image: 'category-laundry.svg' },
  {
    id: -4,
    slug: 'multi-surface',
    name: 'Multi-Surface',
    description: 'Streak-free sprays for every surface.',
    image: 'category-multi-surface.svg',
  },
];

/** Shown when GET /api/blog answers an empty list: the journal's built-in articles, so every card leads to a page. */
export { SAMPLE_ARTICLES } from '@/lib/sample-articles';

/** Category and journal images are stored as file names under /api/public, or as absolute paths. */
export function publicImage(file: string | null | undefined, fallback: string): string {
  if (!file) return fallback;
  return file.startsWith('/') || /^https?:\/\//.test(file) ? file : `/api/public/${file}`;
}
