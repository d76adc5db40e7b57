import { NEWSLETTER_DISCOUNT_PERCENT, POPUP_DEFAULTS, STORAGE_KEYS } from '@nh/shared/constants';
import { lazy, Suspense, useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { useLocation } from 'react-router-dom';
import { toast } from '@/components/ui/use-toast';
import { useOpenedOnce, usePreloadWhenIdle } from '@/lib/lazy-dialog';
import { useCart } from '@/stores/cart-context';
import { errorMessage, useNewsletterSignup } from '../api';

const loadNewsletterDialog = () => import('./newsletter-dialog');
const NewsletterDialog = lazy(loadNewsletterDialog);

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
 * /checkout, never with a non-empty cart, never again after a dismissal or sign-up. The dialog itself
 * (newsletter-dialog.tsx) is its own chunk, loaded when the page is idle and mounted at its first opening.
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
  const opened = useOpenedOnce(open);
  usePreloadWhenIdle(loadNewsletterDialog);

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

  if (!opened) return null;
  return (
    <Suspense fallback={null}>
      <NewsletterDialog
        open={open}
        onOpenChange={onOpenChange}
        email={email}
        onEmailChange={setEmail}
        pending={signup.isPending}
        onSubmit={onSubmit}
      />
    </Suspense>
  );
}
