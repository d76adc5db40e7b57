/** Invite staff: an email and a role (each described); the invitation is emailed with a single-use link. */
import { zodResolver } from '@hookform/resolvers/zod';
import { inviteStaffSchema, STAFF_MESSAGES, STAFF_ROLE_DESCRIPTIONS, STAFF_ROLE_LABELS, STAFF_ROLES, type InviteStaffInput } from '@nh/shared/contracts/staff';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Loader2, UserPlus } from 'lucide-react';
import { Controller, useForm } from 'react-hook-form';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { LabelledField } from '@/components/ui/labelled-field';
import { toast } from '@/components/ui/use-toast';
import { serverMessageOf } from '@/lib/query-client';
import { cn } from '@/lib/utils';
import { inviteStaff, staffQueries } from '../api';

export function InviteForm() {
  const queryClient = useQueryClient();
  const form = useForm<InviteStaffInput>({ resolver: zodResolver(inviteStaffSchema), defaultValues: { email: '', role: 'support' } });
  const invite = useMutation({
    mutationFn: inviteStaff,
    onSuccess: (invitation) => {
      toast({ title: STAFF_MESSAGES.invitationSent, description: `An invitation is on its way to ${invitation.email}.` });
      form.reset();
      void queryClient.invalidateQueries({ queryKey: staffQueries.list.queryKey });
    },
  });

  return (
    <Card>
      <CardHeader>
        <CardTitle>Invite staff</CardTitle>
      </CardHeader>
      <CardContent>
        <form onSubmit={(e) => void form.handleSubmit((values) => invite.mutate(values))(e)} noValidate className="grid gap-4">
          {invite.isError && (
            <Alert variant="destructive">
              <AlertDescription>{serverMessageOf(invite.error) ?? 'The invitation could not be sent. Please try again.'}</AlertDescription>
            </Alert>
          )}
          <LabelledField label="Email" type="email" autoComplete="off" className="max-w-md" error={form.formState.errors.email} {...form.register('email')} />
          <Controller
            control={form.control}
            name="role"
            render={({ field }) => (
              <fieldset className="grid gap-2">
                <legend className="mb-1 text-sm font-medium">Role</legend>
                {STAFF_ROLES.map((role) => (
                  <label
                    key={role}
                    className={cn('flex cursor-pointer items-start gap-3 rounded-lg border p-3 text-sm', field.value === role ? 'border-brand-700 bg-brand-100/40' : 'border-stone-200')}
                  >
                    <input
                      type="radio"
                      name={field.name}
                      value={role}
                      checked={field.value === role}
                      onChange={() => field.onChange(role)}
                      onBlur={field.onBlur}
                      className="mt-0.5 size-4 accent-brand-700"
                    />
                    <span>
                      <span className="block font-semibold">{STAFF_ROLE_LABELS[role]}</span>
                      <span className="block text-stone-600">{STAFF_ROLE_DESCRIPTIONS[role]}</span>
                    </span>
                  </label>
                ))}
              </fieldset>
            )}
          />
          <Button type="submit" className="justify-self-start" disabled={invite.isPending}>
            {invite.isPending ? <Loader2 className="animate-spin" aria-hidden="true" /> : <UserPlus aria-hidden="true" />}
            Send invitation
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
