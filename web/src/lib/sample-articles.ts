/**
 * The three built-in sample articles shown when GET /api/blog answers an empty list (storefront
 * spec §7). They are complete posts, so their cards lead somewhere: the article page falls back to
 * them when the API has no post with that slug. Negative ids keep them apart from database rows.
 */
import type { BlogPost } from '@nh/shared/contracts/catalog';

const base = {
  published: true,
  targetKeywords: [] as string[],
  schemaJsonLd: [] as unknown[],
};

export const SAMPLE_ARTICLES: BlogPost[] = [
  {
    ...base,
    id: -1,
    slug: 'getting-started-with-probiotic-cleaning',
    title: 'Getting Started with Probiotic Cleaning',
    excerpt: 'What probiotic cleaners do differently, where they work best, and how to switch your routine over in a single weekend.',
    image: 'journal-probiotics.svg',
    author: 'Nurture Home Team',
    readTime: 4,
    category: 'Guides',
    createdAt: '2025-01-20T09:00:00.000Z',
    updatedAt: '2025-01-20T09:00:00.000Z',
    metaTitle: 'Getting Started with Probiotic Cleaning | Nurture Home Journal',
    metaDescription: 'A beginner’s guide to probiotic cleaning: how it works, where it shines and how to switch.',
    content: `Probiotic cleaners look and feel like any other spray, but they keep working after you put the bottle down. Here is a quick primer for anyone making the switch.

## How it works

Every bottle contains **dormant Bacillus spores**. When they meet moisture and the organic residue behind most odors, they wake up and release enzymes that break that residue down. A friendly community of good bacteria stays on the surface and leaves less room for the microbes that cause smells.

## Where to start

1. **The toilet.** Odors return more slowly between weekly cleans.
2. **The kitchen bin.** Spray the inside after emptying it.
3. **Sink drains.** A weekly dose keeps sticky buildup under control.

## Good habits

- Let sprays sit for 30 to 60 seconds before wiping.
- Skip the bleach chaser: it deactivates the good bacteria.
- Give it a few weeks; benefits build with regular use.

Curious about what is in each bottle? Every ingredient is listed in our [ingredient glossary](/ingredients).`,
    faqs: [
      { q: 'Do probiotic cleaners disinfect?', a: 'No. They clean and control odors but are not registered disinfectants.' },
      { q: 'Are they safe with pets around?', a: 'Our strains are non-pathogenic. As with any cleaner, store bottles out of reach and follow the label.' },
    ],
    internalLinks: [
      { anchor: 'Ingredient glossary', href: '/ingredients' },
      { anchor: 'How it works', href: '/how-it-works' },
    ],
  },
  {
    ...base,
    id: -2,
    slug: 'five-swaps-for-a-safer-bathroom',
    title: 'Five Easy Swaps for a Safer Bathroom',
    excerpt: 'Small, windowless and cleaned often: the bathroom is where gentler formulas make the biggest difference. Start with these five swaps.',
    image: 'lifestyle-bathroom.svg',
    author: 'Nurture Home Team',
    readTime: 3,
    category: 'Home Care',
    createdAt: '2025-02-10T09:00:00.000Z',
    updatedAt: '2025-02-10T09:00:00.000Z',
    metaTitle: 'Five Easy Swaps for a Safer Bathroom | Nurture Home Journal',
    metaDescription: 'Five simple product swaps for a bathroom that is clean without harsh fumes.',
    content: `Bathrooms are small and often poorly ventilated, so the fumes from harsh cleaners linger. These swaps keep things fresh without them.

## The swaps

| Instead of | Try | Why |
| --- | --- | --- |
| Bleach toilet gel | Probiotic toilet cleaner | Keeps working between cleans |
| Ammonia glass spray | Plant-based glass cleaner | No harsh fumes in a small room |
| Scented plug-ins | An open window and a clean drain | Removes odors instead of masking them |
| Aerosol tub foam | A gentle all-purpose spray | Fewer propellants and fragrances |
| Disposable wipes | Washable cloths | Less waste every week |

## A weekly rhythm

- **Daily:** a quick wipe of the sink and a squeegee in the shower.
- **Weekly:** toilet, tub and floor.
- **Monthly:** drains, grout and the shower curtain.

Browse our [bathroom collection](/shop/bathroom) to get started.`,
    faqs: [
      { q: 'How often should I clean the bathroom?', a: 'A quick daily wipe plus a weekly deep clean keeps most family bathrooms fresh.' },
      { q: 'What can I use on grout?', a: 'A probiotic all-purpose spray left to sit for a minute, then a soft brush.' },
    ],
    internalLinks: [
      { anchor: 'Bathroom collection', href: '/shop/bathroom' },
      { anchor: 'Our impact', href: '/impact' },
    ],
  },
  {
    ...base,
    id: -3,
    slug: 'zero-waste-laundry-basics',
    title: 'Zero-Waste Laundry Basics',
    excerpt: 'Cold washes, plastic-free detergents and a few simple habits that cut laundry waste without sacrificing clean clothes.',
    image: 'journal-refill-guide.svg',
    author: 'Nurture Home Team',
    readTime: 4,
    category: 'Sustainability',
    createdAt: '2025-03-03T09:00:00.000Z',
    updatedAt: '2025-03-03T09:00:00.000Z',
    metaTitle: 'Zero-Waste Laundry Basics | Nurture Home Journal',
    metaDescription: 'Simple habits and plastic-free products for a lower-waste laundry routine.',
    content: `Laundry is one of the most repetitive chores in any home, which makes it one of the easiest places to cut waste.

## Wash cooler

Most of the energy a washing machine uses goes into heating water. Modern detergents, including enzyme-based formulas, clean well at **30°C / 86°F**.

## Choose plastic-free detergent

Pre-measured pods in recyclable cardboard avoid the heavy plastic jugs that end up in landfill, and they stop you from overdosing detergent.

## Simple habits

- Run full loads only.
- Air-dry when you can: it is kinder to fabrics too.
- Treat stains early with a gentle stain remover instead of rewashing.

Learn more about the difference small changes make on our [impact page](/sustainability).`,
    faqs: [
      { q: 'Do cold washes really get clothes clean?', a: 'Yes. Enzyme-based detergents are designed to work at lower temperatures.' },
      { q: 'Are laundry pods safe for septic systems?', a: 'Our plant-based pods are septic-safe and biodegradable.' },
    ],
    internalLinks: [
      { anchor: 'Laundry collection', href: '/shop/laundry' },
      { anchor: 'Sustainability', href: '/sustainability' },
    ],
  },
];

export function findSampleArticle(slug: string): BlogPost | undefined {
  return SAMPLE_ARTICLES.find((article) => article.slug === slug);
}
