import { MONEY_BACK_GUARANTEE_DAYS, TRUST_BADGE_FREE_SHIPPING_THRESHOLD_CENTS } from '@nh/shared/constants';
import { Leaf, Rabbit, RotateCcw, Truck } from 'lucide-react';
import { dollars } from './dollars';

/** The shop's promises under the purchase box: guarantee, free shipping, natural, cruelty free. */
export function ProductPromises() {
  return (
    <ul className="mt-6 grid grid-cols-2 gap-3 text-sm text-stone-700" aria-label="Our promises">
      <li className="flex items-center gap-2">
        <RotateCcw className="size-4 text-brand-700" aria-hidden="true" /> {MONEY_BACK_GUARANTEE_DAYS}-Day Guarantee
      </li>
      <li className="flex items-center gap-2">
        <Truck className="size-4 text-brand-700" aria-hidden="true" /> Free Shipping on orders over {dollars(TRUST_BADGE_FREE_SHIPPING_THRESHOLD_CENTS)}
      </li>
      <li className="flex items-center gap-2">
        <Leaf className="size-4 text-brand-700" aria-hidden="true" /> 100% Natural
      </li>
      <li className="flex items-center gap-2">
        <Rabbit className="size-4 text-brand-700" aria-hidden="true" /> Cruelty Free
      </li>
    </ul>
  );
}
