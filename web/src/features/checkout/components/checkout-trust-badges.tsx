import { Lock, RotateCcw, ShieldCheck } from 'lucide-react';

const BADGES = [
  { icon: Lock, title: 'Secure Checkout', text: 'Card details are encrypted and never stored' },
  { icon: ShieldCheck, title: 'Safe & Secure', text: 'Family-safe products, trusted payments' },
  { icon: RotateCcw, title: 'Easy Returns', text: '30-day money-back guarantee' },
] as const;

/** The checkout variant of the trust badges. */
export function CheckoutTrustBadges() {
  return (
    <ul className="grid grid-cols-3 gap-3 text-center" aria-label="Why shop with us">
      {BADGES.map(({ icon: Icon, title, text }) => (
        <li key={title} className="rounded-xl bg-cream p-3">
          <Icon className="mx-auto mb-1 size-5 text-brand-700" aria-hidden="true" />
          <p className="text-xs font-semibold text-brand-900">{title}</p>
          <p className="mt-0.5 hidden text-[11px] text-stone-600 sm:block">{text}</p>
        </li>
      ))}
    </ul>
  );
}
