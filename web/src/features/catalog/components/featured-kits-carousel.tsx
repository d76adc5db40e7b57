import useEmblaCarousel from 'embla-carousel-react';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { useCallback } from 'react';
import { Button } from '@/components/ui/button';
import type { CatalogProduct } from '../product-model';
import { ProductCard } from './product-card';

/** 'Featured Starter Kits': a looping carousel; previous/next buttons on wider screens. */
export function FeaturedKitsCarousel({ kits }: { kits: CatalogProduct[] }) {
  const [viewportRef, embla] = useEmblaCarousel({ loop: true, align: 'start' });
  const prev = useCallback(() => embla?.scrollPrev(), [embla]);
  const next = useCallback(() => embla?.scrollNext(), [embla]);
  return (
    <section aria-labelledby="featured-kits-heading" aria-roledescription="carousel" className="relative">
      <div className="flex items-end justify-between gap-4">
        <div>
          <h2 id="featured-kits-heading" className="text-2xl font-bold tracking-tight text-brand-900 md:text-3xl">
            Featured Starter Kits
          </h2>
          <p className="mt-1 text-stone-600">The easiest way to switch, room by room.</p>
        </div>
        <div className="hidden gap-2 md:flex">
          <Button variant="outline" size="icon" onClick={prev} aria-label="Previous starter kits">
            <ChevronLeft aria-hidden="true" />
          </Button>
          <Button variant="outline" size="icon" onClick={next} aria-label="Next starter kits">
            <ChevronRight aria-hidden="true" />
          </Button>
        </div>
      </div>
      <div ref={viewportRef} className="mt-6 overflow-hidden">
        <ul className="-ml-4 flex touch-pan-y">
          {kits.map((kit, i) => (
            <li
              key={kit.id}
              className="min-w-0 shrink-0 grow-0 basis-4/5 pl-4 sm:basis-1/2 lg:basis-1/3 xl:basis-1/4"
              aria-roledescription="slide"
              aria-label={`${i + 1} of ${kits.length}`}
            >
              <ProductCard product={kit} className="h-full" />
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
