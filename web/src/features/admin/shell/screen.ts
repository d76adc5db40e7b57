/** What a back-office screen is to the shell: the admin layout gates it by its permission and the sidebar links it. The list itself is admin/screens.tsx. */
import type { Permission } from '@nh/shared/contracts/staff';
import type { ComponentType } from 'react';

/** A screen's module: its component is the default export. */
export type LoadScreen = () => Promise<{ default: ComponentType }>;

export interface AdminScreen {
  /** The address (a React Router path). */
  path: string;
  /** The screen's name: the words of its sidebar link. */
  label: string;
  /** What the signed-in role must be allowed to use the screen. */
  permission: Permission;
  /** The screen's module, or 'server' for a page the server draws (opened with a full page load). */
  screen: LoadScreen | 'server';
  /** Linked from the sidebar; the other screens are reached from one that is (an order from the order list). */
  inSidebar?: true;
}
