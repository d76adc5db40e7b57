/** "Deliver every 1, 2 or 3 months": a choice among the offered cadences (checkout, product page, plan changes). */
import { cadenceWords } from '@nh/shared/contracts/subscriptions';
import { useId } from 'react';
import { usePlanCadences } from './cadences';

export function CadenceChoice({
  value,
  onChange,
  label,
  disabled,
  testId = 'cadence-choice',
}: {
  value: number;
  onChange: (months: number) => void;
  label: string;
  disabled?: boolean;
  testId?: string;
}) {
  const months = usePlanCadences();
  const id = useId();
  return (
    <fieldset className="min-w-0 space-y-1.5" data-testid={testId} disabled={disabled}>
      <legend className="text-sm font-medium">{label}</legend>
      <div className="flex flex-wrap gap-x-4 gap-y-1">
        {months.map((m) => (
          <label key={m} htmlFor={`${id}-${m}`} className="flex items-center gap-1.5 text-sm">
            <input id={`${id}-${m}`} type="radio" name={id} value={m} checked={value === m} onChange={() => onChange(m)} />
            {cadenceWords('monthly', m)}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
