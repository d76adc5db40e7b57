import { SHOP } from '@nh/shared/constants';
import { Sheet, SheetContent, SheetDescription, SheetTitle } from '@/components/ui/sheet';
import { signOut } from '@/lib/auth';
import { NavItem } from './nav-item';
import { MAIN_NAV } from './site-links';

/**
 * The header's menu on small screens (a sheet from the left). Its own chunk: the header loads it when
 * the page is idle and mounts it at its first opening (a closed sheet renders nothing).
 */
export default function MobileMenu({
  open,
  onOpenChange,
  isAuthenticated,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  isAuthenticated: boolean;
}) {
  return (
    <Sheet open={open} onOpenChange={onOpenChange}>
      <SheetContent side="left" className="w-[85%] max-w-xs p-6">
        <SheetTitle>{SHOP.name}</SheetTitle>
        <SheetDescription className="sr-only">Site navigation</SheetDescription>
        <nav aria-label="Mobile" className="mt-2 flex flex-col text-base">
          {MAIN_NAV.map((link) => (
            <NavItem
              key={link.to}
              link={link}
              className="border-b border-stone-100 py-3 text-brand-900"
              onNavigate={() => onOpenChange(false)}
            />
          ))}
          {isAuthenticated ? (
            <>
              <a href="/account/orders" className="border-b border-stone-100 py-3 text-brand-900">
                My Orders
              </a>
              <a href="/subscriptions" className="border-b border-stone-100 py-3 text-brand-900">
                My Subscriptions
              </a>
              <button type="button" onClick={signOut} className="py-3 text-left text-brand-900">
                Log Out
              </button>
            </>
          ) : (
            <a href="/api/login" className="py-3 text-brand-900">
              Log In
            </a>
          )}
        </nav>
      </SheetContent>
    </Sheet>
  );
}
