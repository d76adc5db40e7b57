/**
 * Every screen of the back office, in one list: its address, its name, the permission it needs and its
 * module. The router's admin routes, the sidebar (the screens marked `inSidebar`, in this order) and the
 * role gate (AdminPage shows the role message to a role without the screen's permission) all read it,
 * so a screen cannot be added without its permission. Each module is loaded when first opened. The
 * router hands the list to the admin layout (shell/ never imports this file: the areas import shell/).
 * Kept to types and loaders: the router, and so every storefront page, imports this file.
 */
import type { AdminScreen, LoadScreen } from './shell/screen';

export const ADMIN_SCREENS: readonly AdminScreen[] = [
  { path: '/admin', label: 'Dashboard', permission: 'dashboard.view', inSidebar: true, screen: () => import('./dashboard/screens/dashboard') },
  { path: '/admin/promos', label: 'Promo codes', permission: 'promos.manage', inSidebar: true, screen: () => import('./promos/screens/promo-manager') },
  { path: '/admin-products', label: 'Products', permission: 'catalog.manage', inSidebar: true, screen: () => import('./catalog/screens/product-manager') },
  { path: '/admin-products/create', label: 'Create Product', permission: 'catalog.manage', screen: () => import('./catalog/screens/product-create') },
  { path: '/admin-products/:slug/edit', label: 'Edit Product', permission: 'catalog.manage', screen: () => import('./catalog/screens/product-edit') },
  { path: '/admin-orders', label: 'Orders', permission: 'orders.view', inSidebar: true, screen: () => import('./orders/screens/order-manager') },
  { path: '/admin-orders/:id', label: 'Order', permission: 'orders.view', screen: () => import('./orders/screens/order-detail') },
  { path: '/admin/customers', label: 'Customers', permission: 'customers.view', inSidebar: true, screen: () => import('./customers/screens/customers') },
  { path: '/admin/customers/:id', label: 'Customer', permission: 'customers.view', screen: () => import('./customers/screens/customer-detail') },
  { path: '/admin/subscriptions', label: 'Subscriptions', permission: 'subscriptions.view', inSidebar: true, screen: () => import('./plans/screens/subscriptions') },
  { path: '/admin/subscriptions/:id', label: 'Plan', permission: 'subscriptions.view', screen: () => import('./plans/screens/subscription-detail') },
  { path: '/admin/claims', label: 'Claims', permission: 'claims.resolve', inSidebar: true, screen: () => import('./claims/screens/claims-queue') },
  { path: '/admin/reviews', label: 'Reviews', permission: 'reviews.moderate', inSidebar: true, screen: () => import('./reviews/screens/reviews') },
  { path: '/admin/reports/cancellations', label: 'Cancellations', permission: 'reports.view', inSidebar: true, screen: () => import('./reports/screens/cancellations') },
  { path: '/admin/audit', label: 'Audit Trail', permission: 'audit.view', inSidebar: true, screen: () => import('./audit/screens/audit-trail') },
  { path: '/admin/staff', label: 'Staff', permission: 'staff.manage', inSidebar: true, screen: () => import('./staff/screens/staff-manager') },
  { path: '/admin/queues', label: 'Queues', permission: 'queues.view', inSidebar: true, screen: 'server' },
];

/** The screens used before signing in (no permission: nobody is signed in yet). */
export const ADMIN_PUBLIC_SCREENS: readonly { path: string; screen: LoadScreen }[] = [
  { path: '/admin/invite', screen: () => import('./staff/screens/accept-invitation') },
  { path: '/admin/forgot-password', screen: () => import('./staff/screens/forgot-password') },
  { path: '/admin/reset-password', screen: () => import('./staff/screens/reset-password') },
];
