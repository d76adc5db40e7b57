/** "Resend confirmation" and "Resend shipping notice" (POST /api/admin/orders/{id}/emails), for roles with orders.resendEmail. */
import type { AdminOrder } from '@nh/shared/contracts/admin';
import { RESEND_MESSAGES, type ResendableEmail } from '@nh/shared/contracts/order-timeline';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Loader2, Mail } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/use-toast';
import { serverMessageOf } from '@/lib/query-client';
import { orderQueries, resendEmail } from '../api';

const shipped = (status: AdminOrder['status']) => status === 'shipped' || status === 'delivered';

export function ResendEmails({ order }: { order: Pick<AdminOrder, 'id' | 'status' | 'customerEmail'> }) {
  const queryClient = useQueryClient();
  const resend = useMutation({
    mutationFn: (email: ResendableEmail) => resendEmail(order.id, email),
    onSuccess: (answer) => {
      toast({ title: answer.message || RESEND_MESSAGES.queued, description: `Sent to ${order.customerEmail}.` });
      void queryClient.invalidateQueries({ queryKey: orderQueries.timeline(order.id).queryKey });
    },
    onError: (error) => toast({ title: 'The email was not sent', description: serverMessageOf(error), variant: 'destructive' }),
  });
  const busy = (email: ResendableEmail) => resend.isPending && resend.variables === email;
  return (
    <div className="grid gap-2">
      <div className="flex flex-wrap gap-2">
        <Button size="sm" variant="outline" disabled={resend.isPending} onClick={() => resend.mutate('confirmation')}>
          {busy('confirmation') ? <Loader2 className="animate-spin" aria-hidden="true" /> : <Mail aria-hidden="true" />}
          Resend confirmation
        </Button>
        <Button size="sm" variant="outline" disabled={resend.isPending || !shipped(order.status)} onClick={() => resend.mutate('shipping')}>
          {busy('shipping') ? <Loader2 className="animate-spin" aria-hidden="true" /> : <Mail aria-hidden="true" />}
          Resend shipping notice
        </Button>
      </div>
      {!shipped(order.status) && <p className="text-xs text-stone-500">The shipping notice can be sent once the order has shipped.</p>}
    </div>
  );
}
