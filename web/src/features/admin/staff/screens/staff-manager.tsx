import { zodResolver } from '@hookform/resolvers/zod';
import { formatOrderDate } from '@nh/shared/contracts/admin';
import {
  inviteStaffSchema,
  STAFF_MESSAGES,
  STAFF_ROLE_DESCRIPTIONS,
  STAFF_ROLE_LABELS,
  STAFF_ROLES,
  STAFF_STATUS_LABELS,
  type InviteStaffInput,
  type StaffInvitation,
  type StaffList,
  type StaffMember,
  type StaffRole,
  type UpdateStaffInput,
} from '@nh/shared/contracts/staff';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Loader2, UserPlus } from 'lucide-react';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { LabelledField } from '@/components/ui/labelled-field';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { toast } from '@/components/ui/use-toast';
import { serverMessageOf } from '@/lib/query-client';
import { usePageMeta } from '@/lib/use-page-meta';
import { cn } from '@/lib/utils';
import { adminKeys, inviteStaff, listStaff, revokeInvitation, staffKeys, updateStaff } from '../api';
import { AdminPage } from '../components/admin-frame';
import { RoleGate } from '../components/role-gate';
import { useSignedInStaff } from '../staff-session';

function InviteForm() {
  const queryClient = useQueryClient();
  const form = useForm<InviteStaffInput>({ resolver: zodResolver(inviteStaffSchema), defaultValues: { email: '', role: 'support' } });
  const invite = useMutation({
    mutationFn: inviteStaff,
    onSuccess: (invitation) => {
      toast({ title: STAFF_MESSAGES.invitationSent, description: `An invitation is on its way to ${invitation.email}.` });
      form.reset();
      void queryClient.invalidateQueries({ queryKey: adminKeys.staff });
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

interface Change {
  member: StaffMember;
  change: UpdateStaffInput;
}

function useUpdateStaff() {
  const queryClient = useQueryClient();
  const me = useSignedInStaff();
  return useMutation({
    mutationFn: ({ member, change }: Change) => updateStaff(member.id, change),
    onSuccess: (updated) => {
      queryClient.setQueryData<StaffList>(adminKeys.staff, (list) => list && { ...list, staff: list.staff.map((m) => (m.id === updated.id ? updated : m)) });
      toast({ title: STAFF_MESSAGES.staffUpdated });
      // A change of one's own account changes what the back office shows them.
      if (updated.id === me.id) void queryClient.invalidateQueries({ queryKey: staffKeys.me });
    },
    onError: (error) => toast({ title: 'Staff account not updated', description: serverMessageOf(error), variant: 'destructive' }),
  });
}

function StaffTable({ staff }: { staff: StaffMember[] }) {
  const me = useSignedInStaff();
  const update = useUpdateStaff();
  const [confirming, setConfirming] = useState<StaffMember | null>(null);
  const busy = (member: StaffMember) => update.isPending && update.variables.member.id === member.id;
  const disabling = confirming?.status === 'active';

  return (
    <Card>
      <CardHeader>
        <CardTitle>Staff accounts</CardTitle>
      </CardHeader>
      <CardContent className="relative overflow-x-auto p-0">
        <table className="w-full min-w-[40rem] text-left text-sm">
          <thead className="border-y border-stone-200 bg-stone-50 text-xs uppercase tracking-wide text-stone-600">
            <tr>
              <th className="px-4 py-3">Name</th>
              <th className="px-4 py-3">Role</th>
              <th className="px-4 py-3">Status</th>
              <th className="px-4 py-3">Last sign-in</th>
              <th className="px-4 py-3 text-right">Actions</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-stone-200">
            {staff.map((member) => (
              <tr key={member.id} data-testid={`staff-${member.email}`}>
                <td className="px-4 py-3">
                  <div className="font-medium text-stone-900">
                    {member.name}
                    {member.id === me.id && <span className="ml-1 text-xs font-normal text-stone-500">(you)</span>}
                  </div>
                  <div className="break-all text-xs text-stone-500">{member.email}</div>
                </td>
                <td className="px-4 py-3">
                  <Select value={member.role} onValueChange={(role) => update.mutate({ member, change: { role: role as StaffRole } })} disabled={busy(member)}>
                    <SelectTrigger className="w-36" aria-label={`Role of ${member.name}`}>
                      <SelectValue />
                    </SelectTrigger>
                    <SelectContent>
                      {STAFF_ROLES.map((role) => (
                        <SelectItem key={role} value={role}>
                          {STAFF_ROLE_LABELS[role]}
                        </SelectItem>
                      ))}
                    </SelectContent>
                  </Select>
                </td>
                <td className="px-4 py-3">
                  <Badge variant={member.status === 'active' ? 'secondary' : 'outline'}>{STAFF_STATUS_LABELS[member.status]}</Badge>
                </td>
                <td className="px-4 py-3 text-stone-600">{member.lastSignInAt ? formatOrderDate(member.lastSignInAt) : 'Never'}</td>
                <td className="px-4 py-3 text-right">
                  <Button
                    variant={member.status === 'active' ? 'outline' : 'secondary'}
                    size="sm"
                    onClick={() => setConfirming(member)}
                    disabled={busy(member)}
                    aria-label={`${member.status === 'active' ? 'Disable' : 'Enable'} ${member.name}`}
                  >
                    {member.status === 'active' ? 'Disable' : 'Enable'}
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </CardContent>

      <Dialog open={confirming !== null} onOpenChange={(open) => !open && !update.isPending && setConfirming(null)}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>
              {disabling ? 'Disable' : 'Enable'} {confirming?.name}?
            </DialogTitle>
            <DialogDescription>
              {disabling
                ? `${confirming?.name ?? ''} is signed out at once and cannot sign in until an owner enables the account again.`
                : `${confirming?.name ?? ''} can sign in again with their password.`}
            </DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <Button variant="outline" onClick={() => setConfirming(null)} disabled={update.isPending}>
              Cancel
            </Button>
            <Button
              variant={disabling ? 'destructive' : 'default'}
              disabled={update.isPending}
              onClick={() => confirming && update.mutate({ member: confirming, change: { disabled: disabling } }, { onSettled: () => setConfirming(null) })}
            >
              {update.isPending && <Loader2 className="animate-spin" aria-hidden="true" />}
              {disabling ? 'Disable account' : 'Enable account'}
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </Card>
  );
}

function OpenInvitations({ invitations }: { invitations: StaffList['invitations'] }) {
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState<StaffInvitation | null>(null);
  const revoke = useMutation({
    mutationFn: (invitation: StaffInvitation) => revokeInvitation(invitation.id),
    onSuccess: (_done, invitation) =>
      toast({ title: STAFF_MESSAGES.invitationRevoked, description: `The link sent to ${invitation.email} no longer works.` }),
    onError: (error) => toast({ title: 'Invitation not revoked', description: serverMessageOf(error), variant: 'destructive' }),
    // Revoked, or no longer open (accepted or expired meanwhile): the list says which.
    onSettled: () => {
      setConfirming(null);
      void queryClient.invalidateQueries({ queryKey: adminKeys.staff });
    },
  });

  return (
    <Card>
      <CardHeader>
        <CardTitle>Open invitations</CardTitle>
      </CardHeader>
      <CardContent>
        {invitations.length === 0 ? (
          <p className="text-stone-600">No open invitations.</p>
        ) : (
          <ul className="divide-y divide-stone-200">
            {invitations.map((invitation) => (
              <li key={invitation.id} className="flex flex-wrap items-center justify-between gap-2 py-3 text-sm" data-testid={`invitation-${invitation.email}`}>
                <span className="break-all font-medium">{invitation.email}</span>
                <span className="flex flex-wrap items-center gap-3 text-stone-600">
                  <Badge variant="outline">{STAFF_ROLE_LABELS[invitation.role]}</Badge>
                  {invitation.invitedBy && <span>Invited by {invitation.invitedBy}</span>}
                  <span>Expires {formatOrderDate(invitation.expiresAt)}</span>
                  <Button
                    variant="outline"
                    size="sm"
                    onClick={() => setConfirming(invitation)}
                    disabled={revoke.isPending}
                    aria-label={`Revoke the invitation of ${invitation.email}`}
                  >
                    Revoke
                  </Button>
                </span>
              </li>
            ))}
          </ul>
        )}
      </CardContent>

      <Dialog open={confirming !== null} onOpenChange={(open) => !open && !revoke.isPending && setConfirming(null)}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Revoke the invitation of {confirming?.email}?</DialogTitle>
            <DialogDescription>
              The link in the invitation email stops working at once. You can invite this address again afterwards.
            </DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <Button variant="outline" onClick={() => setConfirming(null)} disabled={revoke.isPending}>
              Cancel
            </Button>
            <Button variant="destructive" disabled={revoke.isPending} onClick={() => confirming && revoke.mutate(confirming)}>
              {revoke.isPending && <Loader2 className="animate-spin" aria-hidden="true" />}
              Revoke invitation
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </Card>
  );
}

function StaffScreen() {
  const list = useQuery({ queryKey: adminKeys.staff, queryFn: listStaff, staleTime: 0 });
  return (
    <div className="grid grid-cols-1 gap-6">
      <InviteForm />
      {list.isPending ? (
        <p className="text-stone-600">Loading staff...</p>
      ) : list.isError ? (
        <p className="text-red-700">{serverMessageOf(list.error) ?? 'Failed to load staff.'}</p>
      ) : (
        <>
          <StaffTable staff={list.data.staff} />
          <OpenInvitations invitations={list.data.invitations} />
        </>
      )}
    </div>
  );
}

/** /admin/staff (owners): staff accounts with their roles, invitations (sent and revoked), disabling and enabling. */
export default function StaffManagerPage() {
  usePageMeta({ title: 'Staff' });
  return (
    <AdminPage title="Staff">
      <RoleGate permission="staff.manage">
        <StaffScreen />
      </RoleGate>
    </AdminPage>
  );
}
