/** For the admin component tests: the admin routes in a memory router, as the app draws them. */
import { QueryClientProvider } from '@tanstack/react-query';
import { configure, render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router-dom';
import { createQueryClient } from '@/lib/query-client';
import { ADMIN_SCREENS } from '../screens';
import { AdminLayout, AdminPublicLayout } from '../shell/admin-layout';

const SignedInLayout = () => <AdminLayout screens={ADMIN_SCREENS} />;

// A whole admin screen (layout, session query, then the screen's own query) can take over a second on a busy two-core machine.
configure({ asyncUtilTimeout: 5000 });

/**
 * Screens inside the admin layout (`signedIn`, at their addresses of admin/screens.tsx, whose
 * permissions gate them) and before sign-in (`open`), rendered at `path`.
 */
export function renderAdmin(path: string, { signedIn = [], open = [] }: { signedIn?: RouteObject[]; open?: RouteObject[] }) {
  const router = createMemoryRouter(
    [
      { Component: SignedInLayout, children: signedIn },
      { Component: AdminPublicLayout, children: open },
      { path: '*', element: <p>elsewhere</p> },
    ],
    { initialEntries: [path] },
  );
  render(
    <QueryClientProvider client={createQueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}
