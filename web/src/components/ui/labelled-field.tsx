import { useId, type ComponentProps } from 'react';
import type { FieldError } from 'react-hook-form';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';

export type LabelledFieldProps = ComponentProps<typeof Input> & { label: string; error?: FieldError };

/** A labelled input with its rule message under it (announced, and linked to the input). */
export function LabelledField({ label, error, className, ...input }: LabelledFieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className={className ? `space-y-1.5 ${className}` : 'space-y-1.5'}>
      <Label htmlFor={id}>{label}</Label>
      <Input id={id} aria-invalid={error ? true : undefined} aria-describedby={error ? errorId : undefined} {...input} />
      {error?.message && (
        <p id={errorId} className="text-sm text-red-600" role="alert">
          {error.message}
        </p>
      )}
    </div>
  );
}
