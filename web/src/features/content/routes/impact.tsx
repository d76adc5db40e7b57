import { IMPACT_GOAL_PROGRESS, IMPACT_GOALS_2025 } from '@nh/shared/constants';
import { Droplets, FlaskConicalOff, Home, Leaf, type LucideIcon, Package, Recycle, Sprout, Truck, Waves } from 'lucide-react';
import { Link } from 'react-router-dom';
import { Hero } from '@/components/hero';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { formatImpactNumber } from '@/lib/format-impact';
import type { Prefetch } from '@/lib/prefetch';
import { usePageMeta } from '@/lib/use-page-meta';
import { impactQuery, useImpactFigures, type ImpactFigures } from '../api';
import { Section, SectionHeading } from '../components';

/** A goal figure without the "+" of a running total: 1,500,000 → "1.5M". */
const goal = (value: number) => formatImpactNumber(value).replace(/\+$/, '');

interface ImpactCardSpec {
  key: keyof ImpactFigures;
  title: string;
  description: string;
  icon: LucideIcon;
  goalLabel: string;
}

const CARDS: ImpactCardSpec[] = [
  {
    key: 'bottlesSaved',
    title: 'Plastic Bottles Saved',
    description: 'Single-use bottles kept out of landfills and oceans through concentrates and refills.',
    icon: Recycle,
    goalLabel: `${goal(IMPACT_GOALS_2025.bottlesSaved)} bottles`,
  },
  {
    key: 'chemicalsAvoided',
    title: 'Pounds of Chemicals Avoided',
    description: 'Harsh chemicals that never reached a home, a drain or a waterway.',
    icon: FlaskConicalOff,
    goalLabel: `${goal(IMPACT_GOALS_2025.chemicalPounds)} pounds`,
  },
  {
    key: 'homesHelped',
    title: 'Healthier Homes',
    description: 'Families who have switched to plant-based, probiotic cleaning.',
    icon: Home,
    goalLabel: `${goal(IMPACT_GOALS_2025.homesHelped)} homes`,
  },
];

const BENEFITS: { title: string; text: string; icon: LucideIcon }[] = [
  { title: 'Ocean-Safe Formulas', text: 'Readily biodegradable ingredients that break down instead of building up in rivers and seas.', icon: Waves },
  { title: 'Less Plastic', text: 'Concentrated refills use a fraction of the plastic of a new spray bottle every time.', icon: Package },
  { title: 'Septic & Water Friendly', text: 'Probiotic cleaners support the good bacteria that septic systems and water treatment rely on.', icon: Droplets },
  { title: 'Carbon-Conscious Shipping', text: 'Lighter, water-free formats mean fewer trucks on the road for every clean home.', icon: Truck },
];

export const prefetch: Prefetch = (queryClient) => queryClient.prefetchQuery(impactQuery);

export default function ImpactPage() {
  usePageMeta({
    title: 'Our Impact',
    description: 'See how many plastic bottles, pounds of harsh chemicals and homes our community has changed, and our goals for 2025.',
  });
  const { figures, isPending } = useImpactFigures();

  return (
    <>
      <Hero
        image="/api/public/backdrop-beach-trash.svg"
        gradient="dark-forest"
        eyebrow="Sustainability"
        title="Our Environmental Impact"
        subtitle="Every bottle you refill and every harsh chemical you skip adds up. Here is what our community has achieved together."
        actions={[
          { label: 'Shop Sustainably', to: '/shop' },
          { label: 'How It Works', to: '/how-it-works' },
        ]}
      />

      <Section className="bg-cream/90">
        <SectionHeading
          id="impact-figures"
          eyebrow="Impact Dashboard"
          title="Progress You Can Measure"
          description="Running totals from every order, and how far we have come toward our 2025 goals."
        />
        <div className="mt-12 grid gap-6 md:grid-cols-3">
          {CARDS.map((card) => (
            <ImpactCard key={card.key} card={card} value={figures[card.key]} progress={IMPACT_GOAL_PROGRESS[card.key]} loading={isPending} />
          ))}
        </div>
      </Section>

      <Section className="bg-white/95">
        <SectionHeading eyebrow="Why It Matters" title="Cleaner Homes, Cleaner Planet" description="Small choices under the sink ripple out to our waterways, our landfills and the air at home." />
        <div className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {BENEFITS.map(({ title, text, icon: Icon }) => (
            <div key={title} className="rounded-2xl border border-stone-200 bg-white p-6 shadow-sm">
              <span className="inline-flex size-12 items-center justify-center rounded-xl bg-brand-100 text-brand-700">
                <Icon className="size-6" aria-hidden="true" />
              </span>
              <h3 className="mt-4 text-lg font-semibold text-brand-900">{title}</h3>
              <p className="mt-2 text-sm leading-relaxed text-stone-600">{text}</p>
            </div>
          ))}
        </div>
      </Section>

      <Section className="bg-gradient-to-br from-brand-900 via-brand-700 to-brand-500 text-white">
        <SectionHeading tone="dark" eyebrow="Looking Ahead" title="Our 2025 Goals" description="Ambitious, measurable and reported openly on this page." />
        <ul className="mt-12 grid gap-6 md:grid-cols-3">
          <GoalItem icon={Recycle} figure={goal(IMPACT_GOALS_2025.bottlesSaved)} label="plastic bottles saved" />
          <GoalItem icon={FlaskConicalOff} figure={goal(IMPACT_GOALS_2025.chemicalPounds)} label="pounds of harsh chemicals avoided" />
          <GoalItem icon={Home} figure={goal(IMPACT_GOALS_2025.homesHelped)} label="homes helped to switch" />
        </ul>
      </Section>

      <Section className="bg-cream/90">
        <div className="mx-auto max-w-3xl rounded-3xl bg-white p-8 text-center shadow-sm sm:p-12">
          <Sprout className="mx-auto size-10 text-brand-500" aria-hidden="true" />
          <h2 className="mt-4 text-2xl font-bold tracking-tight text-brand-900 sm:text-3xl">Our Commitment</h2>
          <p className="mt-4 text-pretty text-lg leading-relaxed text-stone-600">
            By the end of 2025 we aim to keep {goal(IMPACT_GOALS_2025.bottlesSaved)} plastic bottles out of landfills, avoid{' '}
            {goal(IMPACT_GOALS_2025.chemicalPoundsSummary)} pounds of harsh chemicals and welcome {goal(IMPACT_GOALS_2025.homesHelped)} families to
            a healthier way to clean.
          </p>
          <div className="mt-8 flex flex-wrap justify-center gap-3">
            <Button asChild size="lg">
              <Link to="/shop">
                <Leaf aria-hidden="true" />
                Join the Movement
              </Link>
            </Button>
            <Button asChild size="lg" variant="outline">
              <Link to="/about">Our Story</Link>
            </Button>
          </div>
        </div>
      </Section>
    </>
  );
}

function ImpactCard({ card, value, progress, loading }: { card: ImpactCardSpec; value: number; progress: number; loading: boolean }) {
  const Icon = card.icon;
  const labelId = `impact-${card.key}`;
  return (
    <div className="flex flex-col rounded-3xl border border-stone-200 bg-white p-8 shadow-sm">
      <span className="inline-flex size-14 items-center justify-center rounded-2xl bg-brand-100 text-brand-700">
        <Icon className="size-7" aria-hidden="true" />
      </span>
      {loading ? (
        <Skeleton className="mt-6 h-12 w-32" />
      ) : (
        <p className="mt-6 text-5xl font-bold tracking-tight text-brand-900" data-testid={`impact-${card.key}`}>
          {formatImpactNumber(value)}
        </p>
      )}
      <h3 id={labelId} className="mt-2 text-lg font-semibold text-brand-900">
        {card.title}
      </h3>
      <p className="mt-2 flex-1 text-sm leading-relaxed text-stone-600">{card.description}</p>
      <div className="mt-6">
        <div className="flex items-baseline justify-between text-sm">
          <span className="font-medium text-stone-700">2025 goal: {card.goalLabel}</span>
          <span className="font-semibold text-brand-700">{progress}%</span>
        </div>
        <div
          role="progressbar"
          aria-labelledby={labelId}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={progress}
          aria-valuetext={`${progress}% of the 2025 goal`}
          className="mt-2 h-3 overflow-hidden rounded-full bg-brand-100"
        >
          <div className="h-full rounded-full bg-gradient-to-r from-brand-500 to-brand-700" style={{ width: `${progress}%` }} />
        </div>
      </div>
    </div>
  );
}

function GoalItem({ icon: Icon, figure, label }: { icon: LucideIcon; figure: string; label: string }) {
  return (
    <li className="rounded-3xl border border-white/15 bg-white/10 p-8 text-center backdrop-blur-sm">
      <Icon className="mx-auto size-8 text-brand-100" aria-hidden="true" />
      <p className="mt-4 text-5xl font-bold tracking-tight">{figure}</p>
      <p className="mt-2 text-brand-100">{label}</p>
    </li>
  );
}
