import { LabelledField, type LabelledFieldProps } from '@/components/ui/labelled-field';

type CardDetail = 'cardNumber' | 'expirationDate' | 'cardCode';

/**
 * Card Number (full row), Expiration Date and CVV for a two-column grid; `field` gives each input its
 * registration and error. The checkout and the resume dialog both show these.
 */
export function CardDetailsFields({ field }: { field: (name: CardDetail) => Omit<LabelledFieldProps, 'label'> }) {
  return (
    <>
      <LabelledField label="Card Number" autoComplete="cc-number" inputMode="numeric" placeholder="1234 5678 9012 3456" className="sm:col-span-2" {...field('cardNumber')} />
      <LabelledField label="Expiration Date" autoComplete="cc-exp" placeholder="MM/YY" maxLength={5} {...field('expirationDate')} />
      <LabelledField label="CVV" autoComplete="cc-csc" inputMode="numeric" placeholder="123" maxLength={4} {...field('cardCode')} />
    </>
  );
}
