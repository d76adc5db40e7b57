import { Lock } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card, linkClass } from './account-page';

/** Signed out on an account screen: sign in (the API's own page, a full page load), or look an order up as a guest. */
export function SignInPrompt({ returnTo }: { returnTo: string }) {
  return (
    <Card>
      <div className="flex flex-col items-center gap-4 text-center">
        <span className="inline-flex size-14 items-center justify-center rounded-full bg-brand-100 text-brand-700">
          <Lock className="size-7" aria-hidden="true" />
        </span>
        <p className="text-stone-700">Please sign in to see your orders.</p>
        <Button asChild>
          <a href={`/api/login?returnTo=${encodeURIComponent(returnTo)}`}>Log In</a>
        </Button>
        <a href="/orders/lookup" className={linkClass}>
          Ordered as a guest? Look up your order
        </a>
      </div>
    </Card>
  );
}
