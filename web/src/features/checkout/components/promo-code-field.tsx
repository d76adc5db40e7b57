import { normalizePromoCode, PROMO_MESSAGES, type PromoValidation } from '@nh/shared/contracts/promo';
import { Tag, X } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { toast } from '@/components/ui/use-toast';
import { ApiError } from '@/lib/query-client';
import { validatePromoCode } from '../api';

/** Promo input with Apply, or the applied code with a way to remove it (operations §2, §5, §8). */
export function PromoCodeField({ applied, onApply, onRemove }: { applied: PromoValidation | null; onApply: (promo: PromoValidation) => void; onRemove: () => void }) {
  const [input, setInput] = useState('');
  const [validating, setValidating] = useState(false);

  if (applied) {
    return (
      <div className="flex items-center justify-between rounded-lg bg-brand-100/60 px-3 py-2 text-sm" data-testid="applied-promo">
        <span className="inline-flex items-center gap-2 font-medium text-brand-900">
          <Tag className="size-4" aria-hidden="true" /> {applied.code} applied
        </span>
        <Button variant="ghost" size="icon-sm" onClick={onRemove} aria-label={`Remove promo code ${applied.code}`}>
          <X aria-hidden="true" />
        </Button>
      </div>
    );
  }

  const apply = async () => {
    const code = normalizePromoCode(input);
    if (!code) {
      toast({ title: 'Error', description: PROMO_MESSAGES.empty, variant: 'destructive' });
      return;
    }
    setValidating(true);
    try {
      const promo = await validatePromoCode(code);
      onApply(promo);
      setInput('');
      toast({ title: 'Success!', description: `Promo code ${promo.code} applied.` });
    } catch (error) {
      if (error instanceof ApiError) {
        toast({ title: 'Invalid Code', description: error.serverMessage || PROMO_MESSAGES.invalid, variant: 'destructive' });
      } else {
        toast({ title: 'Error', description: 'Failed to validate promo code', variant: 'destructive' });
      }
    } finally {
      setValidating(false);
    }
  };

  return (
    <div className="space-y-2">
      <Label htmlFor="promo-code">Promo Code</Label>
      <div className="flex gap-2">
        <Input
          id="promo-code"
          value={input}
          onChange={(e) => setInput(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              void apply();
            }
          }}
          placeholder="Enter code"
          autoComplete="off"
          maxLength={50}
        />
        <Button variant="outline" onClick={() => void apply()} disabled={!input || validating}>
          {validating ? 'Applying...' : 'Apply'}
        </Button>
      </div>
    </div>
  );
}
