import { useId } from 'react';
import { CANCEL_REASON_VALUES, CANCEL_REASONS, type CancelReason } from '@nh/shared/contracts/cancellation';
import { Label } from '@/components/ui/label';

/** Staff cancelling on the customer's behalf: why the customer cancels, if they said (issue 22; the cancellations report counts it). */
export function CustomerReasonChoice({ value, onChange }: { value: CancelReason | ''; onChange: (value: CancelReason | '') => void }) {
  const id = useId();
  return (
    <div className="space-y-1.5">
      <Label htmlFor={id}>The customer's reason (if they said)</Label>
      <select id={id} className="h-9 w-full rounded-md border bg-background px-2 text-sm" value={value} onChange={(e) => onChange(e.target.value as CancelReason | '')}>
        <option value="">Not said</option>
        {CANCEL_REASON_VALUES.map((reason) => (
          <option key={reason} value={reason}>
            {CANCEL_REASONS[reason]}
          </option>
        ))}
      </select>
    </div>
  );
}
