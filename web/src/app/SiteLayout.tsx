import { Outlet } from 'react-router-dom';

/** Site frame (header, footer, cart drawer, toasts): placeholder until the storefront issue lands. */
export function SiteLayout() {
  return (
    <main id="main-content">
      <Outlet />
    </main>
  );
}
