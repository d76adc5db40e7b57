import { SHOP } from '@nh/shared/constants';
import { STAFF_ROLE_LABELS, type StaffMe } from '@nh/shared/contracts/staff';
import { Loader2, LogOut } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link, NavLink } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/utils';
import type { AdminScreen } from './screen';
import { linksFor } from './sidebar';
import { useSignOut } from './staff-session';

const skipLink =
  'sr-only z-[60] rounded-md bg-white px-4 py-2 font-semibold text-brand-900 shadow-lg focus:not-sr-only focus:fixed focus:left-4 focus:top-4';

const linkClass = 'block rounded-md px-3 py-2 text-sm font-medium';

/** The back office's own frame (no storefront header or footer): sidebar with the role's screens, the signed-in member, Sign out. */
export function AdminFrame({ staff, screens, children }: { staff: StaffMe; screens: readonly AdminScreen[]; children: ReactNode }) {
  const signOut = useSignOut();
  return (
    <div className="min-h-screen bg-stone-50 text-stone-900 lg:grid lg:grid-cols-[15rem_minmax(0,1fr)]">
      <a href="#admin-main" className={skipLink}>
        Skip to main content
      </a>
      <aside className="flex flex-col gap-4 border-b border-stone-200 bg-white px-4 py-4 lg:sticky lg:top-0 lg:h-screen lg:border-b-0 lg:border-r lg:py-6">
        <div>
          <Link to="/" className="font-semibold text-brand-900 hover:underline">
            {SHOP.name}
          </Link>
          <p className="text-xs uppercase tracking-wide text-stone-500">Back office</p>
        </div>
        <nav aria-label="Admin">
          <ul className="flex flex-wrap gap-1 lg:flex-col">
            {linksFor(screens, staff.role).map((link) => (
              <li key={link.path}>
                {link.screen === 'server' ? (
                  <a href={link.path} className={cn(linkClass, 'text-stone-700 hover:bg-stone-100')}>
                    {link.label}
                  </a>
                ) : (
                  <NavLink
                    to={link.path}
                    end={link.path === '/admin'}
                    className={({ isActive }) => cn(linkClass, isActive ? 'bg-brand-700 text-white' : 'text-stone-700 hover:bg-stone-100')}
                  >
                    {link.label}
                  </NavLink>
                )}
              </li>
            ))}
          </ul>
        </nav>
        <div className="flex flex-wrap items-center justify-between gap-3 border-t border-stone-200 pt-4 lg:mt-auto lg:flex-col lg:items-stretch">
          <div className="min-w-0" data-testid="signed-in-staff">
            <p className="truncate text-sm font-semibold">{staff.name}</p>
            <p className="text-xs text-stone-600">{STAFF_ROLE_LABELS[staff.role]}</p>
          </div>
          <Button variant="outline" size="sm" onClick={() => signOut.mutate()} disabled={signOut.isPending}>
            {signOut.isPending ? <Loader2 className="animate-spin" aria-hidden="true" /> : <LogOut aria-hidden="true" />}
            Sign out
          </Button>
        </div>
      </aside>
      <main id="admin-main" tabIndex={-1} className="min-w-0 px-4 py-6 focus:outline-none sm:px-6 lg:px-8 lg:py-10">
        {children}
      </main>
    </div>
  );
}
