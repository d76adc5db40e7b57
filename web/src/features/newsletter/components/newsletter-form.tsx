import { NEWSLETTER_DISCOUNT_PERCENT, NEWSLETTER_FAMILIES_CLAIM } from '@nh/shared/constants';
import { Mail } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { toast } from '@/components/ui/use-toast';
import { serverMessageOf } from '@/lib/query-client';
import { useNewsletterSignup } from '../api';

/** The address check uses the shared zod contract module; it is loaded on first focus, keeping zod off the first page load. */
const loadValidation = () => import('../validate-email');

/** Home page sign-up: idle → submitting ('Subscribing...') → success (email cleared) or failure. */
export function NewsletterForm() {
  const [email, setEmail] = useState('');
  const signup = useNewsletterSignup();

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const { newsletterEmailProblem, NEWSLETTER_MESSAGES } = await loadValidation();
    const problem = newsletterEmailProblem(email);
    if (problem) {
      toast({ ...problem, variant: 'destructive' });
      return;
    }
    signup.mutate(email, {
      onSuccess: () => {
        setEmail('');
        toast({ title: 'Success!', description: NEWSLETTER_MESSAGES.subscribed });
      },
      onError: (error) => {
        toast({
          title: 'Subscription failed',
          description: serverMessageOf(error) || 'Failed to subscribe to newsletter. Please try again.',
          variant: 'destructive',
        });
      },
    });
  };

  const pending = signup.isPending;
  return (
    <section aria-labelledby="newsletter-heading" className="relative overflow-hidden bg-brand-700 py-16 text-white md:py-20">
      <div aria-hidden="true" className="absolute -right-24 -top-24 size-72 rounded-full bg-brand-500/40 blur-3xl" />
      <div className="relative mx-auto max-w-3xl px-4 text-center sm:px-6">
        <Mail className="mx-auto size-10 text-brand-100" aria-hidden="true" />
        <h2 id="newsletter-heading" className="mt-4 text-3xl font-bold tracking-tight md:text-4xl">
          Join {NEWSLETTER_FAMILIES_CLAIM} families cleaning cleaner
        </h2>
        <p className="mt-3 text-brand-100">
          Cleaning tips, new product drops and {NEWSLETTER_DISCOUNT_PERCENT}% off your first order. No spam, unsubscribe any time.
        </p>
        {/* noValidate: the spec's own checks and toasts replace the browser's bubbles. */}
        <form onSubmit={(e) => void onSubmit(e)} noValidate className="mx-auto mt-8 flex max-w-lg flex-col gap-3 sm:flex-row">
          <label htmlFor="newsletter-email" className="sr-only">
            Email address
          </label>
          <Input
            id="newsletter-email"
            type="email"
            autoComplete="email"
            placeholder="Enter your email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            onFocus={() => void loadValidation()}
            disabled={pending}
            className="h-12 rounded-full border-white/30 bg-white px-5 text-stone-900"
          />
          <Button type="submit" size="lg" disabled={pending} className="h-12 bg-white text-brand-900 hover:bg-brand-100">
            {pending ? 'Subscribing...' : 'Subscribe'}
          </Button>
        </form>
      </div>
    </section>
  );
}
