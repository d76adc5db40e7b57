import { STAFF_PASSWORD_MIN_LENGTH } from '@nh/shared/contracts/staff';
import type { FieldError, UseFormRegisterReturn } from 'react-hook-form';
import { LabelledField } from '@/components/ui/labelled-field';

interface Props {
  password: UseFormRegisterReturn;
  confirm: UseFormRegisterReturn;
  errors: { password?: FieldError; confirm?: FieldError };
}

/** New password (with its rule) and the same typed again. */
export function NewPasswordFields({ password, confirm, errors }: Props) {
  return (
    <>
      <div className="grid gap-1">
        <LabelledField label="New password" type="password" autoComplete="new-password" error={errors.password} {...password} />
        {!errors.password && <p className="text-xs text-stone-500">At least {STAFF_PASSWORD_MIN_LENGTH} characters.</p>}
      </div>
      <LabelledField label="Confirm new password" type="password" autoComplete="new-password" error={errors.confirm} {...confirm} />
    </>
  );
}
