/** The page of a screen: inside the admin frame (AdminPage), or on its own before sign-in (AdminCentered). */
import { SHOP } from '@nh/shared/constants';
import type { ReactNode } from 'react';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { RoleMessage, useCan, useScreenPermission } from './role-gate';

/**
 * Title, actions, a way back, then the screen. The screen and its actions only for a role with the
 * screen's permission (from the screen list), which otherwise reads the role's message and calls no API.
 */
export function AdminPage({ title, actions, back, children }: { title?: string; actions?: ReactNode; back?: ReactNode; children: ReactNode }) {
  const permission = useScreenPermission();
  const allowed = useCan(permission);
  return (
    <section className="mx-auto max-w-6xl">
      {title && (
        <div className="mb-6 flex flex-wrap items-center justify-between gap-4">
          <h1 className="text-3xl font-semibold text-brand-900">{title}</h1>
          {allowed && actions}
        </div>
      )}
      {back}
      {allowed ? children : <RoleMessage permission={permission} />}
    </section>
  );
}

/** A page of its own for the screens before sign-in (sign-in, invitation, password reset). */
export function AdminCentered({ title, description, children }: { title: string; description?: ReactNode; children: ReactNode }) {
  return (
    <main id="admin-main" className="flex min-h-screen items-center justify-center bg-stone-50 px-4 py-12">
      <Card className="w-full max-w-md">
        <CardHeader>
          <p className="text-xs uppercase tracking-wide text-stone-500">{SHOP.name} back office</p>
          <h1 className="text-xl font-semibold leading-tight text-brand-900">{title}</h1>
          {description && <CardDescription>{description}</CardDescription>}
        </CardHeader>
        <CardContent>{children}</CardContent>
      </Card>
    </main>
  );
}
