import { Badge } from '@/components/ui/badge';
import type { CatalogProduct } from '../product-model';

export function ProductBadges({
  product,
  className,
}: {
  product: Pick<CatalogProduct, 'isStarterKit' | 'isBestseller' | 'isRefill' | 'isFragranceFree'>;
  className?: string;
}) {
  const badges = [
    product.isStarterKit && { label: 'Starter Kit', variant: 'default' as const },
    product.isBestseller && { label: 'Bestseller', variant: 'accent' as const },
    product.isRefill && { label: 'Refill', variant: 'secondary' as const },
    product.isFragranceFree && { label: 'Fragrance-Free', variant: 'outline' as const },
  ].filter((b) => b !== false);
  if (badges.length === 0) return null;
  return (
    <div className={className}>
      {badges.map((b) => (
        <Badge key={b.label} variant={b.variant} className={b.variant === 'outline' ? 'bg-white' : undefined}>
          {b.label}
        </Badge>
      ))}
    </div>
  );
}
