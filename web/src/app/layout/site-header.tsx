import { HEADER_SCROLL_THRESHOLD_PX, SHOP } from '@nh/shared/constants';
import { Menu, Search, ShoppingBag, User } from 'lucide-react';
import { lazy, Suspense, useEffect, useState, type ReactElement } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { Tooltip, TooltipContent, TooltipTrigger } from '@/components/ui/tooltip';
import { signOut, useAuth } from '@/lib/auth';
import { useOpenedOnce, usePreloadWhenIdle } from '@/lib/lazy-dialog';
import { useCart } from '@/stores/cart-context';
import { useHeroPresent } from '@/lib/hero-presence';
import { useHydrated } from '@/lib/use-hydrated';
import { cn } from '@/lib/utils';
import { NavItem } from './nav-item';
import { hasTransparentHeader, MAIN_NAV } from './site-links';

const SearchDialog = lazy(() => import('./search-dialog'));
const loadMobileMenu = () => import('./mobile-menu');
const MobileMenu = lazy(loadMobileMenu);

function useScrolledPast(threshold: number): boolean {
  // Hydration starts unscrolled, as the server rendered it; the effect reads the real position.
  const hydrated = useHydrated();
  const [scrolled, setScrolled] = useState(() => hydrated && window.scrollY > threshold);
  useEffect(() => {
    const onScroll = () => setScrolled(window.scrollY > threshold);
    onScroll();
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, [threshold]);
  return scrolled;
}

/** Icon-only header button with a tooltip repeating its label for sighted mouse users. */
function WithTooltip({ label, children }: { label: string; children: ReactElement }) {
  return (
    <Tooltip>
      <TooltipTrigger asChild>{children}</TooltipTrigger>
      <TooltipContent>{label}</TooltipContent>
    </Tooltip>
  );
}

function UserMenu({ transparent }: { transparent: boolean }) {
  const { user, isAuthenticated } = useAuth();
  return (
    <DropdownMenu>
      <WithTooltip label="Account">
        <DropdownMenuTrigger asChild>
          <Button variant="ghost" size="icon" aria-label="Account menu" className={cn(transparent && 'text-white hover:bg-white/15')}>
            <User aria-hidden="true" />
          </Button>
        </DropdownMenuTrigger>
      </WithTooltip>
      <DropdownMenuContent align="end">
        {isAuthenticated ? (
          <>
            <DropdownMenuLabel className="max-w-56 truncate">{user?.firstName ? `Hi, ${user.firstName}` : user?.email}</DropdownMenuLabel>
            <DropdownMenuSeparator />
            <DropdownMenuItem asChild>
              <a href="/account/orders">My Orders</a>
            </DropdownMenuItem>
            <DropdownMenuItem asChild>
              <a href="/subscriptions">My Subscriptions</a>
            </DropdownMenuItem>
            <DropdownMenuItem onSelect={signOut}>Log Out</DropdownMenuItem>
          </>
        ) : (
          <DropdownMenuItem asChild>
            <a href="/api/login">Log In</a>
          </DropdownMenuItem>
        )}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

export function SiteHeader() {
  const { pathname } = useLocation();
  const scrolled = useScrolledPast(HEADER_SCROLL_THRESHOLD_PX);
  const { itemCount, openCart } = useCart();
  const { isAuthenticated } = useAuth();
  const [menuOpen, setMenuOpen] = useState(false);
  // The mobile menu's sheet is its own chunk (mobile-menu.tsx), loaded when idle, mounted at its first opening.
  const menuOpened = useOpenedOnce(menuOpen);
  usePreloadWhenIdle(loadMobileMenu);
  const [searchOpen, setSearchOpen] = useState(false);
  const heroPresent = useHeroPresent();
  const transparent = hasTransparentHeader(pathname) && heroPresent && !scrolled && !menuOpen;

  return (
    <header
      data-transparent={transparent}
      className={cn(
        'fixed inset-x-0 top-0 z-40 transition-colors duration-300',
        transparent ? 'bg-transparent text-white' : 'border-b border-stone-200/70 bg-white/90 text-brand-900 shadow-sm backdrop-blur-md',
      )}
    >
      <div className="mx-auto flex h-16 max-w-7xl items-center gap-2 px-4 sm:px-6 md:h-20 lg:px-8">
        <Button
          variant="ghost"
          size="icon"
          className={cn('lg:hidden', transparent && 'text-white hover:bg-white/15')}
          aria-label="Open menu"
          aria-expanded={menuOpen}
          onClick={() => setMenuOpen(true)}
        >
          <Menu aria-hidden="true" />
        </Button>
        <Link
          to="/"
          className="flex items-center gap-2 rounded-md focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
        >
          <img
            src="/api/public/logo.svg"
            alt=""
            className="size-8 object-cover object-left max-[380px]:hidden md:size-9"
            width={36}
            height={36}
          />
          <span className="whitespace-nowrap text-base font-bold tracking-tight sm:text-lg md:text-xl">{SHOP.name}</span>
        </Link>
        <nav aria-label="Main" className="ml-8 hidden items-center gap-6 text-sm font-medium lg:flex">
          {MAIN_NAV.map((link) => (
            <NavItem
              key={link.to}
              link={link}
              className="rounded-sm opacity-90 transition hover:opacity-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
            />
          ))}
        </nav>
        <div className="ml-auto flex items-center gap-1">
          <WithTooltip label="Search">
            <Button
              variant="ghost"
              size="icon"
              aria-label="Search products"
              className={cn(transparent && 'text-white hover:bg-white/15')}
              onClick={() => setSearchOpen(true)}
            >
              <Search aria-hidden="true" />
            </Button>
          </WithTooltip>
          <UserMenu transparent={transparent} />
          <WithTooltip label="Cart">
            <Button
              variant="ghost"
              size="icon"
              className={cn('relative', transparent && 'text-white hover:bg-white/15')}
              aria-label={itemCount > 0 ? `Open cart, ${itemCount} item${itemCount === 1 ? '' : 's'}` : 'Open cart'}
              onClick={openCart}
              data-testid="cart-button"
            >
              <ShoppingBag aria-hidden="true" />
              {itemCount > 0 && (
                <span
                  data-testid="cart-count"
                  className="absolute -right-0.5 -top-0.5 flex min-w-5 items-center justify-center rounded-full bg-teal-700 px-1 text-[11px] font-bold leading-5 text-white"
                >
                  {itemCount}
                </span>
              )}
            </Button>
          </WithTooltip>
        </div>
      </div>

      {menuOpened && (
        <Suspense fallback={null}>
          <MobileMenu open={menuOpen} onOpenChange={setMenuOpen} isAuthenticated={isAuthenticated} />
        </Suspense>
      )}

      {searchOpen && (
        <Suspense fallback={null}>
          <SearchDialog open={searchOpen} onOpenChange={setSearchOpen} />
        </Suspense>
      )}
    </header>
  );
}
