/** The forms that choose a password (accepting an invitation, resetting): the contract's rules plus a typed-twice check. */
import { acceptInvitationSchema } from '@nh/shared/contracts/staff';
import { z } from 'zod';

export const PASSWORDS_DIFFER = 'The two passwords do not match.';

const confirm = z.string();
const same = (v: { password: string; confirm: string }) => v.password === v.confirm;

/** New password and its confirmation. */
export const newPasswordFormSchema = acceptInvitationSchema
  .pick({ password: true })
  .extend({ confirm })
  .refine(same, { message: PASSWORDS_DIFFER, path: ['confirm'] });
export type NewPasswordForm = z.infer<typeof newPasswordFormSchema>;

/** Name, new password and its confirmation. */
export const invitationFormSchema = acceptInvitationSchema
  .pick({ name: true, password: true })
  .extend({ confirm })
  .refine(same, { message: PASSWORDS_DIFFER, path: ['confirm'] });
export type InvitationForm = z.infer<typeof invitationFormSchema>;
