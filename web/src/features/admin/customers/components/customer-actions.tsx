/** Actions for a customer with an account (customers.edit): email a sign-in code; merge their guest orders into the account; change the email (confirmed by the customer). */
import type { CustomerDetail } from '@nh/shared/contracts/admin-customers';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { GitMerge, KeyRound, Loader2 } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { toast } from '@/components/ui/use-toast';
import { apiRequest, readJson, serverMessageOf } from '@/lib/query-client';
import { useCan } from '../../shell/role-gate';
import { customerQueries } from '../api';
import { ChangeEmailButton } from './change-email-dialog';

export function CustomerActions({ customer }: { customer: CustomerDetail }) {
  const allowed = useCan('customers.edit');
  const queryClient = useQueryClient();
  const path = `/api/admin/customers/${encodeURIComponent(customer.id)}`;
  const code = useMutation({
    mutationFn: async () => readJson<{ message: string }>(await apiRequest('POST', `${path}/sign-in-code`, {})),
    onSuccess: ({ message }) => toast({ title: message }),
    onError: (error) => toast({ title: 'The code could not be sent', description: serverMessageOf(error), variant: 'destructive' }),
  });
  const merge = useMutation({
    mutationFn: async () => readJson<{ merged: string[] }>(await apiRequest('POST', `${path}/merge-guest-orders`, {})),
    onSuccess: ({ merged }) => {
      toast({ title: `${merged.length} guest ${merged.length === 1 ? 'order' : 'orders'} now in the customer’s account` });
      void queryClient.invalidateQueries({ queryKey: customerQueries.all });
    },
    onError: (error) => toast({ title: 'The orders could not be merged', description: serverMessageOf(error), variant: 'destructive' }),
  });
  if (!allowed || !customer.hasAccount || customer.anonymised) return null;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Account</CardTitle>
        <CardDescription>The code goes to the customer&apos;s email only; you never see it.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-wrap gap-2">
        <Button variant="outline" onClick={() => code.mutate()} disabled={code.isPending}>
          {code.isPending ? <Loader2 className="animate-spin" aria-hidden="true" /> : <KeyRound aria-hidden="true" />}
          Email a sign-in code
        </Button>
        <Button variant="outline" onClick={() => merge.mutate()} disabled={merge.isPending}>
          {merge.isPending ? <Loader2 className="animate-spin" aria-hidden="true" /> : <GitMerge aria-hidden="true" />}
          Move guest orders into the account
        </Button>
        <ChangeEmailButton customerId={customer.id} currentEmail={customer.email} onDone={() => void queryClient.invalidateQueries({ queryKey: customerQueries.all })} />
      </CardContent>
    </Card>
  );
}
