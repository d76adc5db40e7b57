import { Minus, Plus } from 'lucide-react';
import type { Dispatch, SetStateAction } from 'react';
import { Button } from '@/components/ui/button';

/** − quantity + (never below 1); the number is announced as it changes. */
export function QuantityStepper({ quantity, onChange }: { quantity: number; onChange: Dispatch<SetStateAction<number>> }) {
  return (
    <div className="flex items-center rounded-full border border-stone-300 bg-white" role="group" aria-label="Quantity">
      <Button variant="ghost" size="icon" aria-label="Decrease quantity" disabled={quantity <= 1} onClick={() => onChange((q) => Math.max(1, q - 1))}>
        <Minus aria-hidden="true" />
      </Button>
      <span className="w-10 text-center font-semibold tabular-nums" aria-live="polite" data-testid="quantity">
        {quantity}
      </span>
      <Button variant="ghost" size="icon" aria-label="Increase quantity" onClick={() => onChange((q) => q + 1)}>
        <Plus aria-hidden="true" />
      </Button>
    </div>
  );
}
