import { NEWSLETTER_DISCOUNT_PERCENT, POPUP_CUSTOMERS_CLAIM } from '@nh/shared/constants';
import { Gift } from 'lucide-react';
import type { FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';

export interface NewsletterDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  email: string;
  onEmailChange: (email: string) => void;
  pending: boolean;
  onSubmit: (event: FormEvent) => void;
}

/** The newsletter popup's dialog (newsletter-popup.tsx decides when it opens and sends the sign-up). */
export default function NewsletterDialog({ open, onOpenChange, email, onEmailChange, pending, onSubmit }: NewsletterDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-md overflow-hidden p-0" data-testid="newsletter-popup">
        <div className="bg-gradient-to-br from-brand-900 to-brand-700 px-6 pb-6 pt-8 text-center text-white">
          <Gift className="mx-auto size-10 text-brand-100" aria-hidden="true" />
          <DialogTitle className="mt-3 text-2xl font-bold text-white">
            Wait! Take {NEWSLETTER_DISCOUNT_PERCENT}% off your first order
          </DialogTitle>
          <DialogDescription className="mt-2 text-brand-100">
            Join {POPUP_CUSTOMERS_CLAIM} customers getting non-toxic cleaning tips and member-only offers.
          </DialogDescription>
        </div>
        <form onSubmit={onSubmit} className="flex flex-col gap-3 px-6 pb-6">
          <label htmlFor="popup-email" className="sr-only">
            Email address
          </label>
          <Input
            id="popup-email"
            type="email"
            required
            autoComplete="email"
            placeholder="you@example.com"
            value={email}
            onChange={(e) => onEmailChange(e.target.value)}
            disabled={pending}
          />
          <Button type="submit" size="lg" disabled={pending}>
            {pending ? 'Subscribing...' : `Get My ${NEWSLETTER_DISCOUNT_PERCENT}% Off`}
          </Button>
          <button type="button" className="text-sm text-stone-500 underline-offset-4 hover:underline" onClick={() => onOpenChange(false)}>
            No thanks
          </button>
        </form>
      </DialogContent>
    </Dialog>
  );
}
