/** The frame of the account screens: a centred column under the site header, and the small panels they share. */
import { AlertCircle } from 'lucide-react';
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
