/**
 * Changes staff make for the customer beside the plan actions (issue 21): items, delivery address and a
 * card update link, each behind its dialog with a reason (subscriptions.act; the server's `actions` say
 * which the plan allows now).
 */
import type { AdminSubscriptionDetail } from '@nh/shared/contracts/admin-subscriptions';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { ChangeAddressForCustomer } from './change-address-for-customer';
import { ChangeItemsForCustomer } from './change-items-for-customer';
import { SendCardLink } from './send-card-link';

type Kind = 'items' | 'address' | 'cardLink';

const LABELS: Record<Kind, string> = { items: 'Change items', address: 'Change address', cardLink: 'Send card update link' };

export function OnBehalfActions({ plan }: { plan: AdminSubscriptionDetail }) {
  const [open, setOpen] = useState<Kind | null>(null);
  const available = (Object.keys(LABELS) as Kind[]).filter((kind) => plan.actions[kind]);
  if (available.length === 0) return null;
  const close = () => setOpen(null);
  return (
    <div className="flex flex-wrap gap-2" data-testid="on-behalf-actions">
      {available.map((kind) => (
        <Button key={kind} variant="outline" onClick={() => setOpen(kind)}>
          {LABELS[kind]}
        </Button>
      ))}
      {open === 'items' && <ChangeItemsForCustomer plan={plan} onClose={close} />}
      {open === 'address' && <ChangeAddressForCustomer plan={plan} onClose={close} />}
      {open === 'cardLink' && <SendCardLink plan={plan} onClose={close} />}
    </div>
  );
}
