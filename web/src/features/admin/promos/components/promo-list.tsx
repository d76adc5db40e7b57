import type { AdminPromoCode } from '@nh/shared/contracts/admin';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { toast } from '@/components/ui/use-toast';
import { serverMessageOf } from '@/lib/query-client';
import { promoQueries, togglePromoCode } from '../api';

const describeValue = (promo: Pick<AdminPromoCode, 'discountType' | 'discountValue'>) =>
  promo.discountType === 'percentage' ? `${promo.discountValue}% off` : `$${promo.discountValue} off`;

/** Every promo code with its discount, each switched on or off at once. */
export function PromoList() {
  const queryClient = useQueryClient();
  const codes = useQuery(promoQueries.list);
  const toggle = useMutation({
    mutationFn: togglePromoCode,
    onSuccess: (updated) => queryClient.setQueryData(promoQueries.list.queryKey, (list) => list?.map((p) => (p.id === updated.id ? updated : p))),
    onError: (error) => toast({ title: 'Error', description: serverMessageOf(error) ?? 'Failed to update promo code', variant: 'destructive' }),
  });

  return (
    <Card>
      <CardHeader>
        <CardTitle>Promo Codes</CardTitle>
      </CardHeader>
      <CardContent>
        {codes.isPending ? (
          <p className="text-stone-600">Loading promo codes...</p>
        ) : codes.isError ? (
          <p className="text-red-700">Failed to load promo codes.</p>
        ) : codes.data.length === 0 ? (
          <p className="text-stone-600">No promo codes yet.</p>
        ) : (
          <ul className="divide-y divide-stone-200">
            {codes.data.map((promo) => (
              <li key={promo.id} className="flex flex-wrap items-center justify-between gap-3 py-3" data-testid={`promo-${promo.code}`}>
                <div className="flex items-center gap-3">
                  <span className="font-mono font-semibold">{promo.code}</span>
                  <span className="text-sm text-stone-600">{describeValue(promo)}</span>
                  <Badge variant={promo.isActive ? 'default' : 'outline'}>{promo.isActive ? 'Active' : 'Inactive'}</Badge>
                </div>
                <label className="flex items-center gap-2 text-sm">
                  <input
                    type="checkbox"
                    role="switch"
                    className="size-4 accent-brand-700"
                    checked={promo.isActive}
                    disabled={toggle.isPending && toggle.variables === promo.id}
                    onChange={() => toggle.mutate(promo.id)}
                    aria-label={`${promo.code} active`}
                  />
                  Active
                </label>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
