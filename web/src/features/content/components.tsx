/** Small layout pieces shared by the content screens. */
import type { ReactNode } from 'react';
import { cn } from '@/lib/utils';

export function Section({ id, className, children }: { id?: string; className?: string; children: ReactNode }) {
  return (
    <section id={id} className={cn('px-4 py-16 sm:px-6 md:py-24 lg:px-8', className)}>
      <div className="mx-auto max-w-7xl">{children}</div>
    </section>
  );
}

export function SectionHeading({
  eyebrow,
  title,
  description,
  id,
  align = 'center',
  tone = 'light',
}: {
  eyebrow?: string;
  title: ReactNode;
  description?: ReactNode;
  id?: string;
  align?: 'center' | 'left';
  tone?: 'light' | 'dark';
}) {
  return (
    <div className={cn('max-w-3xl', align === 'center' && 'mx-auto text-center')}>
      {eyebrow && <p className={cn('text-sm font-semibold uppercase tracking-widest', tone === 'dark' ? 'text-brand-100' : 'text-brand-700')}>{eyebrow}</p>}
      <h2 id={id} className={cn('mt-2 text-balance text-3xl font-bold tracking-tight sm:text-4xl', tone === 'dark' ? 'text-white' : 'text-brand-900')}>
        {title}
      </h2>
      {description && <p className={cn('mt-4 text-pretty text-lg', tone === 'dark' ? 'text-brand-100' : 'text-stone-600')}>{description}</p>}
    </div>
  );
}
