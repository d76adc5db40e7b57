import { IMPACT_FALLBACK } from '@nh/shared/constants';
import { useQuery } from '@tanstack/react-query';
import { Droplets, FlaskConicalOff, Home } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { Skeleton } from '@/components/ui/skeleton';
import { formatImpactNumber } from '@/lib/format-impact';
import { cn } from '@/lib/utils';
import { impactQuery } from '../api';

/** True once the element has been at least `threshold` visible (never flips back). */
function useSeenOnce<T extends Element>(threshold: number) {
  const ref = useRef<T>(null);
  const [seen, setSeen] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el || seen) return;
    if (typeof IntersectionObserver === 'undefined') {
      setSeen(true);
      return;
    }
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) {
          setSeen(true);
          observer.disconnect();
        }
      },
      { threshold },
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, [seen, threshold]);
  return [ref, seen] as const;
}

/** Home impact counters: fade in once at 30% visibility, the 2nd and 3rd after 0.5 s and 1 s. */
export function ImpactCounters() {
  const { data, isLoading, isError } = useQuery(impactQuery);
  const figures = isError || !data ? IMPACT_FALLBACK : data;
  const [ref, seen] = useSeenOnce<HTMLDivElement>(0.3);
  const counters = [
    { label: 'Plastic bottles saved', value: figures.bottlesSaved, Icon: Droplets, delay: '0s' },
    { label: 'Pounds of harsh chemicals avoided', value: figures.chemicalsAvoided, Icon: FlaskConicalOff, delay: '0.5s' },
    { label: 'Homes made healthier', value: figures.homesHelped, Icon: Home, delay: '1s' },
  ];
  return (
    <section aria-labelledby="impact-heading" className="bg-brand-900 py-16 text-white md:py-24">
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <div className="mx-auto max-w-2xl text-center">
          <p className="text-sm font-semibold uppercase tracking-widest text-brand-100">Our impact</p>
          <h2 id="impact-heading" className="mt-2 text-3xl font-bold tracking-tight md:text-4xl">
            Every bottle makes a difference
          </h2>
        </div>
        <div ref={ref} className="mt-12 grid gap-6 sm:grid-cols-3" data-testid="impact-counters">
          {counters.map(({ label, value, Icon, delay }) => (
            <div
              key={label}
              style={{ transitionDelay: delay }}
              className={cn(
                'rounded-2xl bg-white/5 p-8 text-center ring-1 ring-white/10 transition-all duration-700',
                seen ? 'translate-y-0 opacity-100' : 'translate-y-4 opacity-0',
              )}
            >
              <Icon className="mx-auto size-8 text-brand-100" aria-hidden="true" />
              {isLoading ? (
                <Skeleton className="mx-auto mt-4 h-10 w-32 bg-white/20" />
              ) : (
                <p className="mt-4 text-4xl font-bold tabular-nums md:text-5xl">{formatImpactNumber(value)}</p>
              )}
              <p className="mt-2 text-brand-100">{label}</p>
            </div>
          ))}
        </div>
        <p className="mt-10 text-center">
          <Link
            to="/sustainability"
            className="inline-flex items-center gap-1 font-semibold text-white underline decoration-brand-500 decoration-2 underline-offset-4 hover:decoration-white"
          >
            See our full impact dashboard →
          </Link>
        </p>
      </div>
    </section>
  );
}
