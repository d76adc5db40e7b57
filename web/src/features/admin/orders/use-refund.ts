/**
 * Refunding (or voiding) an order's payment: POST /api/admin/orders/{id}/refunds with the attempt's
 * Idempotency-Key (refund-attempt.ts). The open attempt lives as long as the component that calls the
 * hook, so closing and reopening a dialog and sending the same refund again keeps its key.
 */
import { formatPrice } from '@nh/shared';
import type { RefundResponse } from '@nh/shared/contracts/refunds';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import { toast } from '@/components/ui/use-toast';
import { orderQueries, refundOrder } from './api';
import { attemptFor, keepsAttempt, type RefundAttempt, type RefundBody } from './refund-attempt';
import { cardEnding } from '@nh/shared/cards';

/** The toast of a refund made: a void cancels the whole charge, a refund gives money back to the card. */
export function refundToast(answer: RefundResponse): { title: string; description: string } {
  const { payment, refundable } = answer;
  const card = (payment.cardType && cardEnding(payment.cardType, payment.lastFour)) || 'the card';
  const left = refundable === '0.00' ? 'Nothing is left to refund.' : `${formatPrice(refundable)} can still be refunded.`;
  if (payment.kind === 'void') return { title: 'Payment voided', description: `The ${formatPrice(payment.amount)} charge was cancelled before it settled: ${card} is not charged. ${left}` };
  return { title: 'Refund made', description: `${formatPrice(payment.amount)} refunded to ${card}. ${left}` };
}

export function useRefund(orderId: string) {
  const queryClient = useQueryClient();
  const open = useRef<RefundAttempt | null>(null);
  return useMutation({
    mutationFn: async (body: RefundBody) => {
      const attempt = attemptFor(open.current, orderId, body);
      open.current = attempt;
      try {
        const answer = await refundOrder(orderId, attempt.body, attempt.key);
        open.current = null;
        return answer;
      } catch (error) {
        if (!keepsAttempt(error)) open.current = null;
        throw error;
      }
    },
    onSuccess: (answer) => {
      toast(refundToast(answer));
    },
    // Made, refused or unknown: the payments, what is left and the timeline are read again.
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: orderQueries.order(orderId).queryKey });
      void queryClient.invalidateQueries({ queryKey: orderQueries.lists });
    },
  });
}
