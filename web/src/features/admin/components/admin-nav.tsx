import { NavLink } from 'react-router-dom';
import { cn } from '@/lib/utils';

const LINKS = [
  { to: '/admin', label: 'Promo Codes' },
  { to: '/admin-products', label: 'Products' },
  { to: '/admin-orders', label: 'Orders' },
];

/** Links between the admin screens (the token is shared in memory, so moving between them stays unlocked). */
export function AdminNav() {
  return (
    <nav aria-label="Admin" className="mb-6 flex flex-wrap gap-2">
      {LINKS.map((link) => (
        <NavLink
          key={link.to}
          to={link.to}
          end
          className={({ isActive }) =>
            cn('rounded-full border px-4 py-1.5 text-sm font-medium', isActive ? 'border-brand-700 bg-brand-700 text-white' : 'border-stone-300 text-stone-700 hover:bg-stone-100')
          }
        >
          {link.label}
        </NavLink>
      ))}
    </nav>
  );
}

export function AdminPage({ title, actions, children }: { title: string; actions?: React.ReactNode; children: React.ReactNode }) {
  return (
    <section className="mx-auto max-w-6xl px-4 pb-16 pt-28 sm:px-6 lg:px-8">
      <AdminNav />
      <div className="mb-6 flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-3xl font-semibold text-brand-900">{title}</h1>
        {actions}
      </div>
      {children}
    </section>
  );
}
