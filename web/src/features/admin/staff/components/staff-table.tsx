/** The staff accounts: role (changed at once), status, last sign-in, and disabling or enabling (after a confirmation). */
import { formatOrderDate } from '@nh/shared/contracts/admin';
import {
  STAFF_MESSAGES,
  STAFF_ROLE_LABELS,
  STAFF_ROLES,
  STAFF_STATUS_LABELS,
  type StaffMe,
  type StaffMember,
  type StaffRole,
  type UpdateStaffInput,
} from '@nh/shared/contracts/staff';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Loader2 } from 'lucide-react';
import { useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { toast } from '@/components/ui/use-toast';
import { serverMessageOf } from '@/lib/query-client';
import { staffMeQuery } from '../../shell/api';
import { useSignedInStaff } from '../../shell/staff-session';
import { columnsOf, DataTable } from '../../ui/data-table';
import { staffQueries, updateStaff } from '../api';

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
      queryClient.setQueryData(staffQueries.list.queryKey, (list) => list && { ...list, staff: list.staff.map((m) => (m.id === updated.id ? updated : m)) });
      toast({ title: STAFF_MESSAGES.staffUpdated });
      // A change of one's own account changes what the back office shows them.
      if (updated.id === me.id) void queryClient.invalidateQueries({ queryKey: staffMeQuery.queryKey });
    },
    onError: (error) => toast({ title: 'Staff account not updated', description: serverMessageOf(error), variant: 'destructive' }),
  });
}

const column = columnsOf<StaffMember>();

/** The columns: the role changes at once, Disable and Enable ask first (`onToggle` opens the confirmation). */
const staffColumns = ({
  me,
  busy,
  onRole,
  onToggle,
}: {
  me: StaffMe;
  busy: (member: StaffMember) => boolean;
  onRole: (member: StaffMember, role: StaffRole) => void;
  onToggle: (member: StaffMember) => void;
}) => [
  column.display({
    id: 'name',
    header: 'Name',
    cell: ({ row: { original: member } }) => (
      <>
        <div className="font-medium text-stone-900">
          {member.name}
          {member.id === me.id && <span className="ml-1 text-xs font-normal text-stone-500">(you)</span>}
        </div>
        <div className="break-all text-xs text-stone-500">{member.email}</div>
      </>
    ),
  }),
  column.display({
    id: 'role',
    header: 'Role',
    cell: ({ row: { original: member } }) => (
      <Select value={member.role} onValueChange={(role) => onRole(member, role as StaffRole)} disabled={busy(member)}>
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
    ),
  }),
  column.display({
    id: 'status',
    header: 'Status',
    cell: ({ row: { original: member } }) => <Badge variant={member.status === 'active' ? 'secondary' : 'outline'}>{STAFF_STATUS_LABELS[member.status]}</Badge>,
  }),
  column.display({
    id: 'last-sign-in',
    header: 'Last sign-in',
    meta: { className: 'text-stone-600' },
    cell: ({ row: { original: member } }) => (member.lastSignInAt ? formatOrderDate(member.lastSignInAt) : 'Never'),
  }),
  column.display({
    id: 'actions',
    header: 'Actions',
    meta: { className: 'text-right' },
    cell: ({ row: { original: member } }) => (
      <Button
        variant={member.status === 'active' ? 'outline' : 'secondary'}
        size="sm"
        onClick={() => onToggle(member)}
        disabled={busy(member)}
        aria-label={`${member.status === 'active' ? 'Disable' : 'Enable'} ${member.name}`}
      >
        {member.status === 'active' ? 'Disable' : 'Enable'}
      </Button>
    ),
  }),
];

export function StaffTable({ staff }: { staff: StaffMember[] }) {
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
        <DataTable
          columns={staffColumns({ me, busy, onRole: (member, role) => update.mutate({ member, change: { role } }), onToggle: setConfirming })}
          data={staff}
          rowId={(member) => member.id}
          className="min-w-[40rem]"
          rowProps={({ original }) => ({ 'data-testid': `staff-${original.email}` })}
        />
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
