import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { pathOf, useHasScreen } from '@/lib/app-paths';
import { classifyHref } from './safe-href';

/**
 * A link to a target taken from article data: site paths the app has a screen for use the router, other
 * site paths (the sign-in page at /api/login) load as pages, web links open in a new tab without an
 * opener, and a refused target (javascript:, data:, …) renders its text only.
 */
export function SafeLink({ href, className, children }: { href: string; className?: string; children: ReactNode }) {
  const hasScreen = useHasScreen();
  const kind = classifyHref(href);
  const target = href.trim();
  if (kind === null) return <span className={className}>{children}</span>;
  if (kind === 'internal')
    return (
      <Link to={target} reloadDocument={!hasScreen(pathOf(target))} className={className}>
        {children}
      </Link>
    );
  if (kind === 'external')
    return (
      <a href={target} target="_blank" rel="noopener noreferrer" className={className}>
        {children}
      </a>
    );
  return (
    <a href={target} className={className}>
      {children}
    </a>
  );
}
