import { Recycle } from 'lucide-react';
import { Link } from 'react-router-dom';
import { Button } from '@/components/ui/button';

export function SustainabilityCta() {
  return (
    <section
      aria-labelledby="zero-waste-heading"
      className="overflow-hidden rounded-3xl bg-gradient-to-br from-brand-900 via-brand-700 to-accent p-8 text-white md:p-12"
    >
      <div className="flex flex-col items-start gap-6 md:flex-row md:items-center md:justify-between">
        <div className="max-w-2xl">
          <Recycle className="size-10 text-brand-100" aria-hidden="true" />
          <h2 id="zero-waste-heading" className="mt-3 text-2xl font-bold md:text-3xl">
            Cleaner homes, cleaner oceans
          </h2>
          <p className="mt-2 text-brand-100">
            Concentrated refills, recyclable packaging and ocean-friendly formulas. Every order keeps plastic out of our seas.
          </p>
        </div>
        <div className="flex flex-wrap gap-3">
          <Button asChild size="lg" className="bg-white text-brand-900 hover:bg-brand-100">
            <Link to="/sustainability">Join Our Zero-Waste Movement</Link>
          </Button>
          <Button asChild size="lg" variant="outline" className="border-white/70 bg-transparent text-white hover:bg-white/10">
            <Link to="/">Our Story &amp; Impact</Link>
          </Button>
        </div>
      </div>
    </section>
  );
}
