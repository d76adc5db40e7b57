/** The frame of the account screens: a centred column under the site header, and the small panels they share. */
import { AlertCircle, MailCheck } from 'lucide-react';
import type { ReactNode } from 'react';
import { Alert, AlertDescription } from '@/components/ui/alert';

export function AccountPage({ title, children, wide = false }: { title: string; children: ReactNode; wide?: boolean }) {
  return (
    <section className={`mx-auto px-4 pb-16 pt-28 sm:px-6 lg:px-8 ${wide ? 'max-w-4xl' : 'max-w-lg'}`}>
      <h1 className="mb-6 text-3xl font-semibold text-brand-900">{title}</h1>
      {children}
    </section>
  );
}

export function Card({ children }: { children: ReactNode }) {
  return <div className="rounded-3xl bg-white p-6 shadow-sm sm:p-8">{children}</div>;
}

export function ErrorNote({ children }: { children: ReactNode }) {
  return (
    <Alert variant="destructive">
      <AlertCircle aria-hidden="true" />
      <AlertDescription>{children}</AlertDescription>
    </Alert>
  );
}

export const linkClass = 'font-medium text-brand-700 underline underline-offset-4 hover:text-brand-900';

/** The answer of a request that emails a link: "Check your email" and the server's words (the same whether or not anything matched). */
export function CheckYourEmail({ message }: { message: string }) {
  return (
    <AccountPage title="Check your email">
      <Card>
        <div className="flex gap-3">
          <MailCheck className="mt-1 size-6 shrink-0 text-brand-700" aria-hidden="true" />
          <p className="text-stone-700" role="status">
            {message}
          </p>
        </div>
      </Card>
    </AccountPage>
  );
}
