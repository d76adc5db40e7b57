/** The invitations not yet accepted, each revocable (after a confirmation). */
import { formatOrderDate } from '@nh/shared/contracts/admin';
import { STAFF_MESSAGES, STAFF_ROLE_LABELS, type StaffInvitation, type StaffList } from '@nh/shared/contracts/staff';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Loader2 } from 'lucide-react';
import { useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { toast } from '@/components/ui/use-toast';
import { serverMessageOf } from '@/lib/query-client';
import { revokeInvitation, staffQueries } from '../api';

export function OpenInvitations({ invitations }: { invitations: StaffList['invitations'] }) {
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
      void queryClient.invalidateQueries({ queryKey: staffQueries.list.queryKey });
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
