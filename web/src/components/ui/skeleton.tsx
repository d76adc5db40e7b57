import type { ComponentProps } from 'react';
import { cn } from '@/lib/utils';

/** A loading placeholder block; hidden from assistive technology (the page announces loading itself). */
export function Skeleton({ className, ...props }: ComponentProps<'div'>) {
  return <div data-slot="skeleton" aria-hidden="true" className={cn('animate-pulse rounded-md bg-stone-200/80', className)} {...props} />;
}
