import { SUBSCRIBE_AND_SAVE_PERCENT } from '@nh/shared/constants';
import { Check, Droplets, Leaf, Recycle, Sparkles, SprayCan, Timer, X } from 'lucide-react';
import { Link } from 'react-router-dom';
import { Hero } from '@/components/hero';
import { Button } from '@/components/ui/button';
import { usePageMeta } from '@/lib/use-page-meta';
import { Section, SectionHeading } from '../components';

const STEPS = [
  {
    icon: SprayCan,
    title: 'Spray & Lift',
    text: 'Plant-derived surfactants loosen dirt, grease and grime so you can wipe them away, just like the cleaners you are used to.',
  },
  {
    icon: Sparkles,
    title: 'Probiotics Wake Up',
    text: 'Dormant Bacillus spores meet moisture and organic residue, wake up and release enzymes that break that residue into tiny pieces.',
  },
  {
    icon: Timer,
    title: 'Keep Working for Days',
    text: 'A friendly layer of good bacteria stays behind, digesting what you cannot see and leaving less room for odor-causing microbes.',
  },
];

const COMPARISON: { feature: string; conventional: string; probiotic: string }[] = [
  { feature: 'How it cleans', conventional: 'Harsh chemical reaction', probiotic: 'Plant surfactants plus natural enzymes' },
  { feature: 'How long it works', conventional: 'Only while the surface is wet', probiotic: 'Keeps working for days' },
  { feature: 'Fumes', conventional: 'Chlorine, ammonia or heavy fragrance', probiotic: 'Little to none' },
  { feature: 'Septic systems', conventional: 'Can harm helpful bacteria', probiotic: 'Supports a healthy septic system' },
  { feature: 'Packaging', conventional: 'A new plastic bottle every time', probiotic: 'Refills and recyclable packaging' },
];

const TIPS = [
  { icon: Timer, text: 'Let sprays sit for 30 to 60 seconds before wiping so the enzymes can get to work.' },
  { icon: X, text: 'Skip the bleach chaser: bleach deactivates the good bacteria you just applied.' },
  { icon: Droplets, text: 'Use regularly. Benefits build over a few weeks, especially in drains and toilets.' },
  { icon: Recycle, text: `Refill instead of rebuying, and save ${SUBSCRIBE_AND_SAVE_PERCENT}% with Subscribe & Save.` },
];

export default function HowItWorksPage() {
  usePageMeta({
    title: 'How It Works',
    description: 'How probiotic cleaners lift dirt, digest residue with natural enzymes and keep odors away for days, without harsh chemicals.',
  });

  return (
    <>
      <Hero
        image="/api/public/backdrop-beach.svg"
        gradient="deep-green"
        eyebrow="The Science of Clean"
        title="How Probiotic Cleaning Works"
        subtitle="Clean like nature does: lift the dirt, let good bacteria digest what is left, and enjoy a fresher home for days."
        actions={[
          { label: 'Shop Starter Kits', to: '/shop?filter=starter' },
          { label: 'See Our Ingredients', to: '/ingredients' },
        ]}
      />

      <Section className="bg-white">
        <SectionHeading eyebrow="Three Simple Steps" title="From Spray Bottle to Fresh Home" />
        <ol className="mt-14 grid gap-8 md:grid-cols-3">
          {STEPS.map(({ icon: Icon, title, text }, index) => (
            <li key={title} className="relative rounded-3xl border border-stone-200 bg-cream/60 p-8 pt-12">
              <span className="absolute -top-6 left-8 inline-flex size-12 items-center justify-center rounded-2xl bg-brand-700 text-lg font-bold text-white shadow-md">
                {index + 1}
              </span>
              <Icon className="size-8 text-brand-500" aria-hidden="true" />
              <h3 className="mt-4 text-xl font-semibold text-brand-900">{title}</h3>
              <p className="mt-2 leading-relaxed text-stone-600">{text}</p>
            </li>
          ))}
        </ol>
      </Section>

      <Section className="bg-cream">
        <SectionHeading eyebrow="A Different Approach" title="Probiotic vs. Conventional Cleaners" />
        <div className="mx-auto mt-12 max-w-4xl overflow-x-auto rounded-2xl border border-stone-200 bg-white shadow-sm">
          <table className="w-full min-w-[36rem] text-left text-sm sm:text-base">
            <thead className="bg-brand-900 text-white">
              <tr>
                <th scope="col" className="px-5 py-4 font-semibold">
                  <span className="sr-only">Feature</span>
                </th>
                <th scope="col" className="px-5 py-4 font-semibold">
                  Conventional
                </th>
                <th scope="col" className="px-5 py-4 font-semibold">
                  Probiotic
                </th>
              </tr>
            </thead>
            <tbody>
              {COMPARISON.map((row) => (
                <tr key={row.feature} className="border-t border-stone-100">
                  <th scope="row" className="px-5 py-4 font-semibold text-brand-900">
                    {row.feature}
                  </th>
                  <td className="px-5 py-4 text-stone-600">
                    <X className="mr-2 inline size-4 align-[-2px] text-stone-400" aria-hidden="true" />
                    {row.conventional}
                  </td>
                  <td className="px-5 py-4 text-stone-800">
                    <Check className="mr-2 inline size-4 align-[-2px] text-brand-500" aria-hidden="true" />
                    {row.probiotic}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <p className="mx-auto mt-6 max-w-3xl text-center text-sm text-stone-600">
          Probiotic cleaners clean and control odors; they are not disinfectants. When public-health guidance calls for disinfecting, use a
          registered disinfectant, then return to your probiotic routine.
        </p>
      </Section>

      <Section className="bg-white">
        <div className="grid items-center gap-12 lg:grid-cols-2">
          <div>
            <SectionHeading align="left" eyebrow="Get the Best Results" title="Tips From Our Team" />
            <ul className="mt-8 space-y-4">
              {TIPS.map(({ icon: Icon, text }) => (
                <li key={text} className="flex gap-4">
                  <span className="inline-flex size-10 shrink-0 items-center justify-center rounded-xl bg-brand-100 text-brand-700">
                    <Icon className="size-5" aria-hidden="true" />
                  </span>
                  <p className="pt-2 leading-relaxed text-stone-700">{text}</p>
                </li>
              ))}
            </ul>
          </div>
          <div className="rounded-3xl bg-gradient-to-br from-brand-900 via-brand-700 to-brand-500 p-10 text-white shadow-sm">
            <Leaf className="size-10 text-brand-100" aria-hidden="true" />
            <h2 className="mt-4 text-3xl font-bold tracking-tight">Ready to try it?</h2>
            <p className="mt-3 text-brand-100">
              Our starter kits bundle the essentials for every room, so you can switch your whole routine in one go.
            </p>
            <div className="mt-8 flex flex-wrap gap-3">
              <Button asChild size="lg" className="bg-white text-brand-900 hover:bg-brand-100">
                <Link to="/shop?filter=starter">Shop Starter Kits</Link>
              </Button>
              <Button asChild size="lg" variant="outline" className="border-white/70 bg-transparent text-white hover:bg-white/10">
                <Link to="/journal">Read the Journal</Link>
              </Button>
            </div>
          </div>
        </div>
      </Section>
    </>
  );
}
