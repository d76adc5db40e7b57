/**
 * A guest's hour with an order. Opening the emailed link spends it and records the order in this
 * browser's session (express-session, the shoppers' store) with the time the access ends; the order
 * page reads it from there, so a reload works while a second click on the link is refused.
 */
import type { Request } from 'express';
import { GUEST_ORDER_ACCESS_MS } from '@nh/shared/contracts/account';

declare module 'express-session' {
  interface SessionData {
    /** Order id → when this browser's access to it ends (ms since the epoch). */
    guestOrders?: Record<string, number>;
  }
}

export async function grantGuestOrder(req: Request, orderId: string, now = Date.now()): Promise<void> {
  const live = Object.entries(req.session.guestOrders ?? {}).filter(([, until]) => until > now);
  req.session.guestOrders = Object.fromEntries([...live, [orderId, now + GUEST_ORDER_ACCESS_MS]]);
  await new Promise<void>((resolve, reject) => req.session.save((err) => (err ? reject(err) : resolve())));
}

export const hasGuestOrder = (req: Request, orderId: string, now = Date.now()): boolean => (req.session?.guestOrders?.[orderId] ?? 0) > now;
