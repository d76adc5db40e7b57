import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import { useRegisterHero } from '@/lib/hero-presence';
import { cn } from '@/lib/utils';

/** Green gradient presets of storefront §2 (laid over the image, or alone when there is no image). */
export const HERO_GRADIENTS = {
  'dark-forest': 'from-[#0f2a1f] via-[#1d4332] to-[#2f6b4f]',
  'deep-green': 'from-[#123524] via-[#1f5138] to-[#3b7d57]',
  'brand-primary': 'from-brand-900 via-brand-700 to-brand-500',
  'fresh-meadow': 'from-[#2f6b4f] via-[#5a9a6e] to-[#9cc9a5]',
  'sage-earth': 'from-[#4a5d4a] via-[#6f8a6c] to-[#a8b89a]',
} as const;
export type HeroGradient = keyof typeof HERO_GRADIENTS;

export interface HeroAction {
  label: string;
  to: string;
}

export interface HeroProps {
  image?: string;
  /** Alternative text of the image; empty when it is purely decorative (the default). */
  imageAlt?: string;
  title: ReactNode;
  subtitle?: ReactNode;
  /** Up to two call-to-action links; the first is the primary one. */
  actions?: readonly [HeroAction?, HeroAction?];
  overlay?: 'black' | 'brand';
  gradient?: HeroGradient;
  eyebrow?: ReactNode;
  className?: string;
  size?: 'md' | 'lg';
  children?: ReactNode;
}

const CATEGORY_HEROES = new Set(['bathroom', 'kitchen', 'laundry', 'multi-surface']);

/** Category hero image: bathroom, kitchen, laundry and multi-surface have their own, others the lifestyle default. */
export function categoryHeroImage(slug: string | null | undefined): string {
  return slug && CATEGORY_HEROES.has(slug) ? `/api/public/hero-${slug}.svg` : '/api/public/hero-default.svg';
}

/** Full-width hero: image, title, optional subtitle, up to two call-to-action buttons, black or brand overlay. */
export function Hero({
  image,
  imageAlt = '',
  title,
  subtitle,
  actions = [],
  overlay = 'black',
  gradient,
  eyebrow,
  className,
  size = 'md',
  children,
}: HeroProps) {
  useRegisterHero();
  const [primary, secondary] = actions;
  return (
    <section
      className={cn(
        'relative isolate flex w-full items-center overflow-hidden bg-brand-900 text-white',
        size === 'lg' ? 'min-h-[520px] md:min-h-[640px]' : 'min-h-[360px] md:min-h-[440px]',
        className,
      )}
    >
      {image && <img src={image} alt={imageAlt} className="absolute inset-0 -z-20 size-full object-cover" fetchPriority="high" />}
      <div
        aria-hidden="true"
        className={cn(
          'absolute inset-0 -z-10',
          gradient
            ? cn('bg-gradient-to-br', HERO_GRADIENTS[gradient], image ? 'opacity-80' : '')
            : overlay === 'brand'
              ? 'bg-gradient-to-r from-brand-900/85 via-brand-700/70 to-brand-700/30'
              : 'bg-gradient-to-r from-black/70 via-black/45 to-black/20',
        )}
      />
      <div className="mx-auto w-full max-w-7xl px-4 pb-14 pt-28 sm:px-6 md:pt-32 lg:px-8">
        <div className="max-w-2xl">
          {eyebrow && <div className="mb-4 text-sm font-semibold uppercase tracking-widest text-brand-100">{eyebrow}</div>}
          <h1 className="text-balance text-4xl font-bold leading-tight tracking-tight sm:text-5xl md:text-6xl">{title}</h1>
          {subtitle && <p className="mt-5 max-w-xl text-pretty text-lg text-white/90 md:text-xl">{subtitle}</p>}
          {(primary || secondary) && (
            <div className="mt-8 flex flex-wrap gap-3">
              {primary && (
                <Button asChild size="lg" className="bg-white text-brand-900 hover:bg-brand-100">
                  <Link to={primary.to}>{primary.label}</Link>
                </Button>
              )}
              {secondary && (
                <Button asChild size="lg" variant="outline" className="border-white/70 bg-transparent text-white hover:bg-white/10">
                  <Link to={secondary.to}>{secondary.label}</Link>
                </Button>
              )}
            </div>
          )}
          {children}
        </div>
      </div>
    </section>
  );
}
