import type { FieldErrors, UseFormRegister } from 'react-hook-form';
import type { CheckoutAddress } from '@nh/shared/contracts/checkout';
import { LabelledField } from '@/components/ui/labelled-field';

/**
 * A delivery address's four fields as checkout lays them out (its labels, autocomplete and rules: the
 * form's resolver is the checkout's address schema), in one column on a phone: a plan's new address, by
 * the shopper (My Subscriptions) or by staff for them.
 */
export function AddressFields<T extends CheckoutAddress>({ register, errors }: { register: UseFormRegister<T>; errors: FieldErrors<CheckoutAddress> }) {
  const field = (name: keyof CheckoutAddress) => ({ ...register(name as Parameters<UseFormRegister<T>>[0]), error: errors[name] });
  return (
    <div className="grid min-w-0 gap-4 sm:grid-cols-2">
      <LabelledField label="Address" autoComplete="street-address" className="sm:col-span-2" {...field('address')} />
      <LabelledField label="City" autoComplete="address-level2" {...field('city')} />
      <div className="grid grid-cols-2 gap-4">
        <LabelledField label="State" autoComplete="address-level1" maxLength={2} placeholder="CA" {...field('state')} />
        <LabelledField label="ZIP Code" autoComplete="postal-code" inputMode="numeric" {...field('zip')} />
      </div>
    </div>
  );
}
