import { Loader2 } from 'lucide-react';
import { useEffect, useMemo } from 'react';
import { matchRoutes, Outlet, useLocation } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import { Toaster } from '@/components/ui/toaster';
import { AdminFrame } from './admin-frame';
import { AdminCentered } from './admin-page';
import { ScreenPermission } from './role-gate';
import type { AdminScreen } from './screen';
import { SignInScreen } from './sign-in-form';
import { SignedInStaff, useSignInWhenSessionEnds, useStaff } from './staff-session';

/** The permission of the screen at this address, from the screen list (null for an address not in it). */
function usePermissionHere(screens: readonly AdminScreen[]) {
  const location = useLocation();
  const routes = useMemo(() => screens.map((screen) => ({ path: screen.path, screen })), [screens]);
  return matchRoutes(routes, location)?.at(-1)?.route.screen.permission ?? null;
}

function ScrollToTop() {
  const { pathname } = useLocation();
  useEffect(() => {
    window.scrollTo({ top: 0, left: 0, behavior: 'instant' });
  }, [pathname]);
  return null;
}

function SignedInOrSignIn({ screens }: { screens: readonly AdminScreen[] }) {
  const { staff, isPending, isError, refetch } = useStaff();
  const permission = usePermissionHere(screens);
  if (isPending) {
    return (
      <AdminCentered title="Back office">
        <p className="flex items-center gap-2 text-stone-600" aria-busy="true">
          <Loader2 className="size-4 animate-spin" aria-hidden="true" />
          Checking access...
        </p>
      </AdminCentered>
    );
  }
  if (isError) {
    return (
      <AdminCentered title="Back office" description="The back office could not be reached.">
        <Button onClick={() => void refetch()}>Try again</Button>
      </AdminCentered>
    );
  }
  if (!staff) return <SignInScreen />;
  return (
    <SignedInStaff.Provider value={staff}>
      <AdminFrame staff={staff} screens={screens}>
        <ScreenPermission.Provider value={permission}>
          <Outlet />
        </ScreenPermission.Provider>
      </AdminFrame>
    </SignedInStaff.Provider>
  );
}

/**
 * Every signed-in admin route: the admin frame for the signed-in member, else the sign-in screen (any
 * 401 returns to it). `screens` is the back office's screen list (admin/screens.tsx), handed in by the
 * router: it gates each screen by its permission and gives the sidebar its links.
 */
export function AdminLayout({ screens }: { screens: readonly AdminScreen[] }) {
  useSignInWhenSessionEnds();
  return (
    <>
      <ScrollToTop />
      <SignedInOrSignIn screens={screens} />
      <Toaster />
    </>
  );
}

/** The routes used before signing in (invitation, forgot and reset password): each draws its own page. */
export function AdminPublicLayout() {
  return (
    <>
      <Outlet />
      <Toaster />
    </>
  );
}
