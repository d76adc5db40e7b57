/** Change the delivery address for the customer: the checkout's address rules (the shared schema), and a reason. */
import { ADMIN_SUBSCRIPTION_MESSAGES as MSG, changeAddressByStaffSchema, type AdminSubscriptionDetail } from '@nh/shared/contracts/admin-subscriptions';
import { useState } from 'react';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { firstIssue, OnBehalfDialog, useOnBehalfForm } from './on-behalf-dialog';

const FIELDS = [
  { name: 'address', label: 'Address', autoComplete: 'street-address', wide: true },
  { name: 'city', label: 'City', autoComplete: 'address-level2', wide: true },
  { name: 'state', label: 'State', autoComplete: 'address-level1', wide: false },
  { name: 'zip', label: 'ZIP Code', autoComplete: 'postal-code', wide: false },
] as const;

type Address = Record<(typeof FIELDS)[number]['name'], string>;

export function ChangeAddressForCustomer({ plan, onClose }: { plan: AdminSubscriptionDetail; onClose: () => void }) {
  const [address, setAddress] = useState<Address>(plan.shippingAddress ?? { address: '', city: '', state: '', zip: '' });
  const form = useOnBehalfForm(plan.id, MSG.addressChanged, 'The address could not be changed', onClose);
  const current = plan.shippingAddress ? `${plan.shippingAddress.address}, ${plan.shippingAddress.city}, ${plan.shippingAddress.state} ${plan.shippingAddress.zip}` : 'no address';

  const submit = () => {
    const checked = changeAddressByStaffSchema.safeParse({ ...address, reason: form.reason });
    if (!checked.success) return form.setProblem(firstIssue(checked.error, MSG.addressReason));
    form.send({ action: 'address', body: checked.data });
  };

  return (
    <OnBehalfDialog
      title="Change the delivery address"
      description={`The plan ships to ${current}. The new address is used from the next renewal on. ${plan.customerName} is emailed about the change; the reason stays in the audit trail.`}
      submitLabel="Change address"
      {...form.dialog}
      onSubmit={submit}
    >
      <div className="grid min-w-0 grid-cols-2 gap-3">
        {FIELDS.map((f) => (
          <div key={f.name} className={f.wide ? 'col-span-2 space-y-1.5' : 'space-y-1.5'}>
            <Label htmlFor={`staff-address-${f.name}`}>{f.label}</Label>
            <Input
              id={`staff-address-${f.name}`}
              autoComplete={f.autoComplete}
              maxLength={f.name === 'state' ? 2 : undefined}
              value={address[f.name]}
              onChange={(e) => setAddress((a) => ({ ...a, [f.name]: e.target.value }))}
            />
          </div>
        ))}
      </div>
    </OnBehalfDialog>
  );
}
