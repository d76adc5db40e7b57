/**
 * Privacy requests (owners and managers): download everything held about the customer as JSON, and
 * anonymise them after typing their email again (plans cancelled first; orders and totals kept).
 */
import type { CustomerDetail } from '@nh/shared/contracts/admin-customers';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Download, Loader2, ShieldOff } from 'lucide-react';
import { useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { toast } from '@/components/ui/use-toast';
import { apiRequest, serverMessageOf } from '@/lib/query-client';
import { useCan } from '../../shell/role-gate';
import { customerQueries } from '../api';

async function downloadExport(id: string): Promise<void> {
  const res = await apiRequest('GET', `/api/admin/customers/${encodeURIComponent(id)}/export`);
  const url = URL.createObjectURL(await res.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = `customer-${id.slice(0, 8)}.json`;
  link.click();
  URL.revokeObjectURL(url);
}

export function PrivacyActions({ customer }: { customer: CustomerDetail }) {
  const allowed = useCan('customers.privacy');
  const queryClient = useQueryClient();
  const inputId = useId();
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const exporting = useMutation({
    mutationFn: () => downloadExport(customer.id),
    onError: (error) => toast({ title: 'The export could not be made', description: serverMessageOf(error), variant: 'destructive' }),
  });
  const anonymise = useMutation({
    mutationFn: async () => (await apiRequest('POST', `/api/admin/customers/${encodeURIComponent(customer.id)}/anonymise`, { confirmEmail: typed })).json(),
    onSuccess: () => {
      setOpen(false);
      toast({ title: 'Customer anonymised' });
      void queryClient.invalidateQueries({ queryKey: customerQueries.all });
    },
    onError: (error) => setProblem(serverMessageOf(error) ?? 'The customer could not be anonymised.'),
  });
  if (!allowed) return null;
  const openPlans = customer.plans.filter((p) => p.nextBillingDate !== null).length;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Privacy requests</CardTitle>
        <CardDescription>Each request is recorded in the audit trail with your name.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-wrap gap-2">
        <Button variant="outline" onClick={() => exporting.mutate()} disabled={exporting.isPending}>
          {exporting.isPending ? <Loader2 className="animate-spin" aria-hidden="true" /> : <Download aria-hidden="true" />}
          Download their data (JSON)
        </Button>
        {!customer.anonymised && (
          <Button variant="destructive" onClick={() => setOpen(true)}>
            <ShieldOff aria-hidden="true" />
            Anonymise
          </Button>
        )}
      </CardContent>
      <Dialog open={open} onOpenChange={(next) => !anonymise.isPending && setOpen(next)}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Anonymise this customer?</DialogTitle>
            <DialogDescription>
              {openPlans > 0 ? `Their ${openPlans === 1 ? 'subscription is' : `${openPlans} subscriptions are`} cancelled first, without an email. ` : ''}
              Their name, email, phone and addresses are replaced on every order, subscription, email record, review, note and staff change. Orders,
              payments and totals stay, and so does NetSuite. This cannot be undone.
            </DialogDescription>
          </DialogHeader>
          <div className="space-y-1.5">
            <Label htmlFor={inputId}>Type the customer&apos;s email to confirm</Label>
            <Input id={inputId} value={typed} onChange={(e) => setTyped(e.target.value)} autoComplete="off" />
            {problem && (
              <p className="text-sm text-red-600" role="alert">
                {problem}
              </p>
            )}
          </div>
          <DialogFooter>
            <Button variant="outline" onClick={() => setOpen(false)} disabled={anonymise.isPending}>
              Cancel
            </Button>
            <Button variant="destructive" onClick={() => anonymise.mutate()} disabled={anonymise.isPending}>
              {anonymise.isPending && <Loader2 className="animate-spin" aria-hidden="true" />}
              Anonymise customer
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </Card>
  );
}
