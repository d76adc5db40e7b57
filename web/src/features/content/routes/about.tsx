import { SHOP } from '@nh/shared/constants';
import { Eye, FlaskConical, HeartHandshake, Leaf, type LucideIcon, ShieldCheck } from 'lucide-react';
import { Link } from 'react-router-dom';
import { Hero } from '@/components/hero';
import { Button } from '@/components/ui/button';
import { usePageMeta } from '@/lib/use-page-meta';
import { Section, SectionHeading } from '../components';

const VALUES: { icon: LucideIcon; title: string; text: string }[] = [
  {
    icon: ShieldCheck,
    title: 'Family Safety First',
    text: 'Every formula is designed for homes with crawling babies, curious pets and people with sensitive skin.',
  },
  {
    icon: Leaf,
    title: 'Planet Positive',
    text: 'Biodegradable ingredients, refillable formats and recyclable packaging, because clean should not cost the earth.',
  },
  {
    icon: Eye,
    title: 'Radical Transparency',
    text: 'We list every ingredient, its purpose and its rating. No secret blends, no hidden fragrance.',
  },
  {
    icon: FlaskConical,
    title: 'Science-Backed Results',
    text: 'Probiotic and enzyme technology that genuinely cleans, tested in real homes on real messes.',
  },
];

const LEADERS = [
  {
    name: 'Elena Marsh',
    role: 'Co-Founder & CEO',
    avatar: '/api/public/avatar-1.svg',
    bio: 'A mother of two who started Nurture Home after searching for cleaners she felt good about using around her kids.',
  },
  {
    name: 'Dr. Samuel Okafor',
    role: 'Co-Founder & Head of Product Science',
    avatar: '/api/public/avatar-2.svg',
    bio: 'A microbiologist with fifteen years of experience in environmental biotechnology and enzyme formulation.',
  },
  {
    name: 'Priya Natarajan',
    role: 'Chief Sustainability Officer',
    avatar: '/api/public/avatar-3.svg',
    bio: 'Leads our packaging, refill and carbon programs, and keeps our impact numbers honest.',
  },
];

export default function AboutPage() {
  usePageMeta({
    title: 'About Us',
    description: `The mission, values and people behind ${SHOP.name}: probiotic, plant-based cleaning that is safe for families and the planet.`,
  });

  return (
    <>
      <Hero
        image="/api/public/lifestyle-living.svg"
        overlay="brand"
        eyebrow={`About ${SHOP.name}`}
        title="Clean Homes, Healthy Families, Happy Planet"
        subtitle="We believe the products that keep your home clean should never put your family or the planet at risk."
        actions={[
          { label: 'Shop Our Products', to: '/shop' },
          { label: 'Our Impact', to: '/impact' },
        ]}
      />

      <Section className="bg-white">
        <div className="grid items-center gap-12 lg:grid-cols-2">
          <div>
            <SectionHeading align="left" eyebrow="Our Mission" title="Making safe cleaning the easy choice" />
            <div className="mt-6 space-y-4 text-lg leading-relaxed text-stone-600">
              <p>
                {SHOP.name} began at a kitchen table, with a simple question: why do the products we use to make our homes clean leave behind
                fumes, residues and plastic we would never choose on purpose?
              </p>
              <p>
                Our answer is probiotic cleaning: plant-derived formulas with beneficial bacteria that lift dirt, digest what is left behind and keep
                working for days. They are gentle enough for the whole family and tough enough for everyday messes.
              </p>
            </div>
          </div>
          <img src="/api/public/lifestyle-kitchen.svg" alt="" className="aspect-[4/3] w-full rounded-3xl bg-brand-100 object-cover shadow-sm" loading="lazy" />
        </div>
      </Section>

      <Section className="bg-cream">
        <SectionHeading eyebrow="What We Stand For" title="Our Values" />
        <ul className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {VALUES.map(({ icon: Icon, title, text }) => (
            <li key={title} className="rounded-3xl border border-stone-200 bg-white p-7 shadow-sm">
              <span className="inline-flex size-12 items-center justify-center rounded-2xl bg-brand-100 text-brand-700">
                <Icon className="size-6" aria-hidden="true" />
              </span>
              <h3 className="mt-5 text-lg font-semibold text-brand-900">{title}</h3>
              <p className="mt-2 text-sm leading-relaxed text-stone-600">{text}</p>
            </li>
          ))}
        </ul>
      </Section>

      <Section className="bg-white">
        <SectionHeading eyebrow="The People Behind the Bottles" title="Our Leadership" />
        <ul className="mt-12 grid gap-8 md:grid-cols-3">
          {LEADERS.map((leader) => (
            <li key={leader.name} className="flex flex-col items-center rounded-3xl border border-stone-200 bg-white p-8 text-center shadow-sm">
              <img src={leader.avatar} alt="" className="size-28 rounded-full bg-brand-100 object-cover ring-4 ring-brand-100" loading="lazy" />
              <h3 className="mt-5 text-xl font-semibold text-brand-900">{leader.name}</h3>
              <p className="text-sm font-medium text-brand-700">{leader.role}</p>
              <p className="mt-3 text-sm leading-relaxed text-stone-600">{leader.bio}</p>
            </li>
          ))}
        </ul>
      </Section>

      <Section className="bg-brand-900 text-white">
        <div className="flex flex-col items-center gap-6 text-center">
          <HeartHandshake className="size-10 text-brand-100" aria-hidden="true" />
          <h2 className="max-w-2xl text-balance text-3xl font-bold tracking-tight">Join thousands of families cleaning the natural way</h2>
          <div className="flex flex-wrap justify-center gap-3">
            <Button asChild size="lg" className="bg-white text-brand-900 hover:bg-brand-100">
              <Link to="/shop?filter=starter">Shop Starter Kits</Link>
            </Button>
            <Button asChild size="lg" variant="outline" className="border-white/70 bg-transparent text-white hover:bg-white/10">
              <Link to="/support">Contact Us</Link>
            </Button>
          </div>
        </div>
      </Section>
    </>
  );
}
