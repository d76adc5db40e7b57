import { Star } from 'lucide-react';
import { cn } from '@/lib/utils';

/** Five stars filled to the (rounded) rating; the text equivalent is given by the caller or here. */
export function StarRating({
  rating,
  className,
  size = 'sm',
  label,
}: {
  rating: number;
  className?: string;
  size?: 'sm' | 'md';
  label?: string;
}) {
  const filled = Math.round(rating);
  return (
    <span className={cn('inline-flex items-center gap-0.5', className)} role="img" aria-label={label ?? `Rated ${rating} out of 5`}>
      {[1, 2, 3, 4, 5].map((n) => (
        <Star
          key={n}
          aria-hidden="true"
          className={cn(
            size === 'sm' ? 'size-3.5' : 'size-5',
            n <= filled ? 'fill-amber-400 text-amber-400' : 'fill-stone-200 text-stone-200',
          )}
        />
      ))}
    </span>
  );
}
