import { NavLink, useLocation } from 'react-router-dom';
import { cn } from '@/lib/utils';
import type { SiteLink } from './site-links';

/** A main navigation link (header bar and mobile menu): underlined on its page and its aliases. */
export function NavItem({ link, className, onNavigate }: { link: SiteLink; className?: string; onNavigate?: () => void }) {
  const { pathname } = useLocation();
  if (link.external) {
    return (
      <a href={link.to} target="_blank" rel="noopener noreferrer" className={className} onClick={onNavigate}>
        {link.label}
        <span className="sr-only"> (opens in a new tab)</span>
      </a>
    );
  }
  const onAlias = link.aliases?.some((path) => pathname === path || pathname.startsWith(`${path}/`)) ?? false;
  return (
    <NavLink
      to={link.to}
      className={({ isActive }) => cn(className, (isActive || onAlias) && 'font-semibold underline decoration-2 underline-offset-8')}
      onClick={onNavigate}
    >
      {link.label}
    </NavLink>
  );
}
