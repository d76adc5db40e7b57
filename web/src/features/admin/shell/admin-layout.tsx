import { Loader2 } from 'lucide-react';
import { useEffect } from 'react';
import { matchRoutes, Outlet, useLocation } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import { Toaster } from '@/components/ui/toaster';
import { ADMIN_SCREENS } from '../screens';
import { AdminFrame } from './admin-frame';
import { AdminCentered } from './admin-page';
import { ScreenPermission } from './role-gate';
import { SignInScreen } from './sign-in-form';
import { SignedInStaff, useSignInWhenSessionEnds, useStaff } from './staff-session';

const SCREEN_ROUTES = ADMIN_SCREENS.map((screen) => ({ path: screen.path, screen }));

/** The permission of the screen at this address, from the screen list (null for an address not in it). */
function usePermissionHere() {
  const location = useLocation();
  return matchRoutes(SCREEN_ROUTES, location)?.at(-1)?.route.screen.permission ?? null;
}

function ScrollToTop() {
  const { pathname } = useLocation();
  useEffect(() => {
    window.scrollTo({ top: 0, left: 0, behavior: 'instant' });
  }, [pathname]);
  return null;
}

function SignedInOrSignIn() {
  const { staff, isPending, isError, refetch } = useStaff();
  const permission = usePermissionHere();
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
      <AdminFrame staff={staff}>
        <ScreenPermission.Provider value={permission}>
          <Outlet />
        </ScreenPermission.Provider>
      </AdminFrame>
    </SignedInStaff.Provider>
  );
}

/** Every signed-in admin route: the admin frame for the signed-in member, else the sign-in screen (any 401 returns to it). */
export function AdminLayout() {
  useSignInWhenSessionEnds();
  return (
    <>
      <ScrollToTop />
      <SignedInOrSignIn />
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
