import { MONEY_BACK_GUARANTEE_DAYS } from '@nh/shared/constants';
import { shippingClaim } from '@nh/shared/shipping-claims';
import { HOME_ZONE, type ShippingZone } from '@nh/shared/shipping-rules';
import { Leaf, Rabbit, RotateCcw, Truck } from 'lucide-react';

/** The shop's promises under the purchase box: guarantee, free shipping (the shipping rule's), natural, cruelty free. */
export function ProductPromises({ shippingZone = HOME_ZONE }: { shippingZone?: ShippingZone }) {
  const shipping = shippingClaim(shippingZone);
  return (
    <ul className="mt-6 grid grid-cols-2 gap-3 text-sm text-stone-700" aria-label="Our promises">
      <li className="flex items-center gap-2">
        <RotateCcw className="size-4 text-brand-700" aria-hidden="true" /> {MONEY_BACK_GUARANTEE_DAYS}-Day Guarantee
      </li>
      {shipping.freeOver && (
        <li className="flex items-center gap-2">
          <Truck className="size-4 text-brand-700" aria-hidden="true" /> Free Shipping on orders {shipping.freeOver}
        </li>
      )}
      <li className="flex items-center gap-2">
        <Leaf className="size-4 text-brand-700" aria-hidden="true" /> 100% Natural
      </li>
      <li className="flex items-center gap-2">
        <Rabbit className="size-4 text-brand-700" aria-hidden="true" /> Cruelty Free
      </li>
    </ul>
  );
}
