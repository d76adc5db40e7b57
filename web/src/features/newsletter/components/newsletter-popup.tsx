import { NEWSLETTER_DISCOUNT_PERCENT, POPUP_CUSTOMERS_CLAIM, POPUP_DEFAULTS, STORAGE_KEYS } from '@nh/shared/constants';
import { Gift } from 'lucide-react';
import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { useLocation } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { toast } from '@/components/ui/use-toast';
import { useCart } from '@/stores/cart-context';
import { errorMessage, useNewsletterSignup } from '../api';

export type PopupTrigger = 'exit-intent' | 'timed' | 'scroll';
type PopupRecord = 'subscribed' | 'dismissed';

function readRecord(): PopupRecord | null {
  try {
    const value = localStorage.getItem(STORAGE_KEYS.emailPopupDismissed);
    return value === 'subscribed' || value === 'dismissed' ? value : null;
  } catch {
    return null;
  }
}

function writeRecord(value: PopupRecord) {
  try {
    localStorage.setItem(STORAGE_KEYS.emailPopupDismissed, value);
  } catch (error) {
    console.error('Could not remember the newsletter popup choice', error);
  }
}

export interface NewsletterPopupProps {
  /** The layout uses exit intent; the timed and scroll triggers are available for other placements. */
  trigger?: PopupTrigger;
  delayMs?: number;
  scrollPercent?: number;
}

/**
 * Exit-intent newsletter popup (storefront §4): opens at most once per page session, never on
 * /checkout, never with a non-empty cart, never again after a dismissal or sign-up.
 */
export function NewsletterPopup({
  trigger = 'exit-intent',
  delayMs = POPUP_DEFAULTS.delayMs,
  scrollPercent = POPUP_DEFAULTS.scrollPercent,
}: NewsletterPopupProps) {
  const [open, setOpen] = useState(false);
  const [email, setEmail] = useState('');
  const shownThisSession = useRef(false);
  const { pathname } = useLocation();
  const { itemCount } = useCart();
  const signup = useNewsletterSignup();

  // Staff screens (/admin, /admin-products, /admin-orders) never get the shopper popup either.
  const eligible = pathname !== '/checkout' && !pathname.startsWith('/admin') && itemCount === 0;

  const show = useCallback(() => {
    if (shownThisSession.current || readRecord() !== null) return;
    shownThisSession.current = true;
    setOpen(true);
  }, []);

  useEffect(() => {
    if (!eligible || shownThisSession.current) return;
    if (trigger === 'exit-intent') {
      const onLeave = (event: MouseEvent) => {
        if (event.clientY <= 0 && event.relatedTarget === null) show();
      };
      document.documentElement.addEventListener('mouseleave', onLeave);
      return () => document.documentElement.removeEventListener('mouseleave', onLeave);
    }
    if (trigger === 'timed') {
      const timer = setTimeout(show, delayMs);
      return () => clearTimeout(timer);
    }
    const onScroll = () => {
      const scrollable = document.documentElement.scrollHeight - window.innerHeight;
      if (scrollable > 0 && (window.scrollY / scrollable) * 100 >= scrollPercent) show();
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, [eligible, trigger, delayMs, scrollPercent, show]);

  const onOpenChange = (next: boolean) => {
    if (!next) {
      if (readRecord() !== 'subscribed') writeRecord('dismissed');
      setOpen(false);
    }
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!email.trim()) return;
    signup.mutate(email, {
      onSuccess: () => {
        writeRecord('subscribed');
        setOpen(false);
        setEmail('');
        toast({ title: 'Welcome aboard!', description: `Check your email for your ${NEWSLETTER_DISCOUNT_PERCENT}% discount code.` });
      },
      onError: (error) => {
        toast({ title: 'Oops!', description: errorMessage(error) ?? 'Something went wrong. Please try again.', variant: 'destructive' });
      },
    });
  };

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
            onChange={(e) => setEmail(e.target.value)}
            disabled={signup.isPending}
          />
          <Button type="submit" size="lg" disabled={signup.isPending}>
            {signup.isPending ? 'Subscribing...' : `Get My ${NEWSLETTER_DISCOUNT_PERCENT}% Off`}
          </Button>
          <button type="button" className="text-sm text-stone-500 underline-offset-4 hover:underline" onClick={() => onOpenChange(false)}>
            No thanks
          </button>
        </form>
      </DialogContent>
    </Dialog>
  );
}
