import type { CheckoutQuote } from '@nh/shared/contracts/checkout';
import { formatCents, toCents } from '@nh/shared/money';
import type { ShippingMethod } from '@nh/shared/shipping-rules';

type Options = NonNullable<CheckoutQuote['options']>;

/**
 * Standard or express (issue 25), with each one's price for this cart and its delivery promise in the
 * address's zone. Express appears only where the zone offers it; a plan ships standard (the form does
 * not show this choice for Subscribe & Save).
 */
export function ShippingChoice({ options, value, onChange, disabled }: { options: Options; value: ShippingMethod; onChange: (method: ShippingMethod) => void; disabled?: boolean }) {
  const choices: Array<{ method: ShippingMethod; title: string; price: string; promise: string }> = [
    { method: 'standard', title: 'Standard', price: options.standard.free ? 'Free' : formatCents(toCents(options.standard.price)), promise: options.standard.promise },
  ];
  if (options.express) choices.push({ method: 'express', title: 'Express', price: formatCents(toCents(options.express.price)), promise: options.express.promise });
  return (
    <fieldset className="space-y-2 sm:col-span-2" disabled={disabled} data-testid="shipping-choice">
      <legend className="mb-1 text-sm font-medium text-stone-900">Shipping method</legend>
      {choices.map((choice) => (
        <label
          key={choice.method}
          className="flex cursor-pointer items-center gap-3 rounded-md border border-stone-300 px-3 py-2 text-sm has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50"
        >
          <input
            type="radio"
            name="shippingMethod"
            value={choice.method}
            checked={value === choice.method}
            onChange={() => onChange(choice.method)}
            className="size-4 accent-brand-600"
          />
          <span className="flex-1">
            <span className="font-medium text-stone-900">{choice.title}</span>
            <span className="block text-xs text-stone-600">{choice.promise}</span>
          </span>
          <span className="font-medium" data-testid={`shipping-${choice.method}-price`}>
            {choice.price}
          </span>
        </label>
      ))}
    </fieldset>
  );
}
