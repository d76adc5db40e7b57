import { Skeleton } from '@/components/ui/skeleton';

/**
 * Placeholder while the product loads: the gallery square and the summary column. At least a screen
 * tall, so the footer stays below the fold until the page arrives (it would jump down: a layout shift).
 */
export function ProductSkeleton() {
  return (
    <div
      className="mx-auto grid min-h-screen max-w-7xl content-start gap-10 px-4 pb-16 pt-28 sm:px-6 md:grid-cols-2 lg:px-8"
      aria-busy="true"
      aria-label="Loading product"
    >
      <Skeleton className="aspect-square w-full rounded-3xl" />
      <div className="space-y-4">
        <Skeleton className="h-6 w-24" />
        <Skeleton className="h-10 w-3/4" />
        <Skeleton className="h-6 w-32" />
        <Skeleton className="h-24 w-full" />
        <Skeleton className="h-12 w-full" />
      </div>
    </div>
  );
}
