import { STAFF_ROLES } from '@nh/shared/contracts/staff';
import { describe, expect, it } from 'vitest';
import { roleMessage } from './permissions';
import { ADMIN_SCREENS } from '../screens';
import { linksFor } from './sidebar';

describe('what each role sees', () => {
  it('offers each role only the screens its permissions allow', () => {
    const labels = (role: (typeof STAFF_ROLES)[number]) => linksFor(ADMIN_SCREENS, role).map((link) => link.label);
    expect(labels('owner')).toEqual(ADMIN_SCREENS.filter((screen) => screen.inSidebar).map((screen) => screen.label));
    expect(labels('manager')).toEqual([
      'Dashboard',
      'Promo codes',
      'Products',
      'Orders',
      'Customers',
      'Subscriptions',
      'Claims',
      'Reviews',
      'Cancellations',
      'Audit Trail',
      'Queues',
    ]);
    expect(labels('fulfilment')).toEqual(['Dashboard', 'Orders']);
    expect(labels('support')).toEqual(['Dashboard', 'Orders', 'Customers', 'Subscriptions', 'Claims']);
  });

  it('names the role and what it cannot do, in words', () => {
    expect(roleMessage('support', 'promos.manage')).toBe('Your role (Support) cannot manage promo codes. Ask an owner if you need it.');
    expect(roleMessage('fulfilment', 'orders.refund')).toBe('Your role (Fulfilment) cannot refund orders. Ask an owner if you need it.');
  });
});
