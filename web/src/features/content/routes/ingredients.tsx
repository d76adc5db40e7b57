import { LIMITS } from '@nh/shared/constants';
import type { Ingredient } from '@nh/shared/contracts/catalog';
import { Leaf, Microscope, ShieldCheck, Sparkles } from 'lucide-react';
import { Link } from 'react-router-dom';
import { Hero } from '@/components/hero';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import type { Prefetch } from '@/lib/prefetch';
import { usePageMeta } from '@/lib/use-page-meta';
import { cn } from '@/lib/utils';
import { ingredientsQuery, useIngredients } from '../api';
import { Section, SectionHeading } from '../components';
import { ewgBand, EWG_BAND_LIST, groupByEwgBand, type EwgBandKey } from '../ewg';

/** Colours per band: green for low hazard through amber, grey while a rating is pending. */
const BAND_STYLE: Record<EwgBandKey, { chip: string; card: string; blurb: string }> = {
  excellent: {
    chip: 'bg-brand-700 text-white',
    card: 'border-brand-500/40 bg-brand-100/50',
    blurb: 'Low hazard. Little evidence of harm at normal use levels.',
  },
  good: {
    chip: 'bg-lime-700 text-white',
    card: 'border-lime-500/40 bg-lime-50',
    blurb: 'Low to moderate hazard, often depending on dose and exposure.',
  },
  moderate: {
    chip: 'bg-amber-500 text-amber-950',
    card: 'border-amber-400/50 bg-amber-50',
    blurb: 'Higher hazard. We explain why we use, limit or avoid these.',
  },
  pending: {
    chip: 'bg-stone-600 text-white',
    card: 'border-stone-300 bg-stone-50',
    blurb: 'Not yet rated: not enough public data for a score.',
  },
};

const PROBIOTIC_POINTS = [
  {
    icon: Microscope,
    title: 'Beneficial Bacillus spores',
    text: 'Dormant, non-pathogenic spores from the same family used for decades in septic and water treatment.',
  },
  {
    icon: Sparkles,
    title: 'Enzymes that keep working',
    text: 'Once awake, they release enzymes that digest the proteins, fats and starches behind everyday odors.',
  },
  {
    icon: ShieldCheck,
    title: 'A balanced surface',
    text: 'Good bacteria occupy the surface and leave less room for the microbes that make things smell.',
  },
];

export const prefetch: Prefetch = (queryClient) => queryClient.prefetchQuery(ingredientsQuery);

export default function IngredientsPage() {
  usePageMeta({
    title: 'Ingredients',
    description: 'Every ingredient we use, what it does, where it comes from and its EWG hazard rating, plus how our probiotics work.',
  });
  const { data: ingredients, isPending, isError } = useIngredients();

  return (
    <>
      <Hero
        image="/api/public/lifestyle-kitchen.svg"
        gradient="fresh-meadow"
        eyebrow="Full Transparency"
        title="Ingredients You Can Trust"
        subtitle="Plant-based, probiotic and openly listed. See every ingredient we use, why it is there and how it is rated."
        actions={[
          { label: 'Shop Safe Cleaners', to: '/shop' },
          { label: 'How It Works', to: '/how-it-works' },
        ]}
      />

      <Section className="bg-white">
        <div className="grid items-center gap-12 lg:grid-cols-2">
          <div>
            <SectionHeading
              align="left"
              eyebrow="The Power of Probiotics"
              title="Good Bacteria, Doing the Hard Work"
              description="Our probiotic blend keeps cleaning long after you put the cloth down, breaking down residue you cannot see so odors come back more slowly."
            />
            <Button asChild variant="outline" className="mt-8">
              <Link to="/journal/how-probiotic-cleaners-work">Read the science</Link>
            </Button>
          </div>
          <ul className="grid gap-4">
            {PROBIOTIC_POINTS.map(({ icon: Icon, title, text }) => (
              <li key={title} className="flex gap-4 rounded-2xl border border-stone-200 bg-cream/60 p-5">
                <span className="inline-flex size-11 shrink-0 items-center justify-center rounded-xl bg-brand-700 text-white">
                  <Icon className="size-5" aria-hidden="true" />
                </span>
                <div>
                  <h3 className="font-semibold text-brand-900">{title}</h3>
                  <p className="mt-1 text-sm leading-relaxed text-stone-600">{text}</p>
                </div>
              </li>
            ))}
          </ul>
        </div>
      </Section>

      <Section className="bg-cream">
        <SectionHeading
          eyebrow="Understanding the Ratings"
          title="EWG Hazard Scores, Explained"
          description="The Environmental Working Group scores ingredients from 1 (lowest hazard) to 10 (highest). We group our ingredients into these bands."
        />
        <ul className="mt-12 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {EWG_BAND_LIST.map((band) => (
            <li key={band.key} className={cn('rounded-2xl border p-6', BAND_STYLE[band.key].card)}>
              <span className={cn('inline-flex rounded-full px-3 py-1 text-sm font-bold', BAND_STYLE[band.key].chip)}>
                {band.range ? `EWG ${band.range}` : 'Not rated'}
              </span>
              <h3 className="mt-4 text-lg font-semibold text-brand-900">{band.label}</h3>
              <p className="mt-1 text-sm leading-relaxed text-stone-600">{BAND_STYLE[band.key].blurb}</p>
            </li>
          ))}
        </ul>
      </Section>

      <Section className="bg-white">
        <SectionHeading id="ingredient-list" eyebrow="Ingredient Glossary" title="What’s in Our Bottles (and What Isn’t)" />
        <div className="mt-12">
          {isPending ? (
            <div role="status" aria-label="Loading ingredients" className="grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
              {Array.from({ length: LIMITS.placeholders.ingredients }, (_, i) => (
                <div key={i} data-testid="ingredient-skeleton" className="space-y-3 rounded-2xl border border-stone-200 p-6">
                  <Skeleton className="h-6 w-2/3" />
                  <Skeleton className="h-4 w-full" />
                  <Skeleton className="h-4 w-5/6" />
                  <Skeleton className="h-4 w-1/2" />
                </div>
              ))}
            </div>
          ) : isError ? (
            <p className="mx-auto max-w-xl rounded-2xl bg-cream p-8 text-center text-stone-700">
              We couldn’t load the ingredient list right now. Please try again later.
            </p>
          ) : ingredients && ingredients.length > 0 ? (
            <div className="space-y-14">
              {groupByEwgBand(ingredients).map(({ band, items }) => (
                <section key={band.key} aria-labelledby={`band-${band.key}`}>
                  <h3 id={`band-${band.key}`} className="flex flex-wrap items-center gap-3 text-2xl font-semibold text-brand-900">
                    {band.label}
                    <span className={cn('rounded-full px-3 py-0.5 text-sm font-bold', BAND_STYLE[band.key].chip)}>
                      {band.range ? `EWG ${band.range}` : 'Not yet rated'}
                    </span>
                    <span className="text-sm font-normal text-stone-500">
                      {items.length} {items.length === 1 ? 'ingredient' : 'ingredients'}
                    </span>
                  </h3>
                  <ul className="mt-6 grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
                    {items.map((ingredient) => (
                      <IngredientCard key={ingredient.id} ingredient={ingredient} />
                    ))}
                  </ul>
                </section>
              ))}
            </div>
          ) : (
            <p className="mx-auto max-w-xl rounded-2xl bg-cream p-8 text-center text-stone-700">Our ingredient glossary is being updated. Please check back soon.</p>
          )}
        </div>
      </Section>

      <Section className="bg-brand-900 text-white">
        <div className="flex flex-col items-center gap-6 text-center">
          <Leaf className="size-10 text-brand-100" aria-hidden="true" />
          <h2 className="max-w-2xl text-balance text-3xl font-bold tracking-tight">Never bleach, ammonia or synthetic fragrance</h2>
          <p className="max-w-2xl text-brand-100">
            Just plant-derived cleaners and good bacteria, safe for the people and pets you love.
          </p>
          <Button asChild size="lg" className="bg-white text-brand-900 hover:bg-brand-100">
            <Link to="/shop">Shop the Collection</Link>
          </Button>
        </div>
      </Section>
    </>
  );
}

function IngredientCard({ ingredient }: { ingredient: Ingredient }) {
  const band = ewgBand(ingredient.ewgRating);
  return (
    <li className="flex flex-col rounded-2xl border border-stone-200 bg-white p-6 shadow-sm">
      <div className="flex items-start justify-between gap-3">
        <h4 className="text-lg font-semibold leading-snug text-brand-900">{ingredient.name}</h4>
        <span
          className={cn('shrink-0 rounded-full px-2.5 py-0.5 text-xs font-bold', BAND_STYLE[band.key].chip)}
          title={band.key === 'pending' ? 'EWG rating pending' : `EWG rating ${ingredient.ewgRating}: ${band.label}`}
        >
          {band.key === 'pending' ? 'Pending' : `EWG ${ingredient.ewgRating}`}
        </span>
      </div>
      {ingredient.description && <p className="mt-3 flex-1 text-sm leading-relaxed text-stone-600">{ingredient.description}</p>}
      {(ingredient.function || ingredient.source) && (
        <dl className="mt-4 grid gap-1 border-t border-stone-100 pt-4 text-sm">
          {ingredient.function && (
            <div className="flex gap-2">
              <dt className="font-medium text-stone-500">Function:</dt>
              <dd className="text-stone-800">{ingredient.function}</dd>
            </div>
          )}
          {ingredient.source && (
            <div className="flex gap-2">
              <dt className="font-medium text-stone-500">Source:</dt>
              <dd className="text-stone-800">{ingredient.source}</dd>
            </div>
          )}
        </dl>
      )}
    </li>
  );
}
