import { zodResolver } from '@hookform/resolvers/zod';
import { orderLookupRequestSchema, type OrderLookupRequest } from '@nh/shared/contracts/account';
import { LIMITS } from '@nh/shared/constants';
import { useMutation } from '@tanstack/react-query';
import { Loader2 } from 'lucide-react';
import { useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { LabelledField } from '@/components/ui/labelled-field';
import { serverMessageOf } from '@/lib/query-client';
import { usePageMeta } from '@/lib/use-page-meta';
import { lookupOrder } from '../api';
import { AccountPage, Card, CheckYourEmail, ErrorNote, linkClass } from '../components/account-page';

/**
 * /orders/lookup: a guest names an order by its number and email; a single-use link to it is emailed.
 * The answer is the same whether or not they matched (nothing can be learnt about orders from it).
 */
export default function OrderLookupPage() {
  usePageMeta({ title: 'Look up an order', description: 'Find an order placed without an account: enter its number and email and we email you a link to it.' });
  const form = useForm<OrderLookupRequest>({ resolver: zodResolver(orderLookupRequestSchema), defaultValues: { orderNumber: '', email: '' } });
  const lookup = useMutation({ mutationFn: lookupOrder });

  if (lookup.isSuccess) return <CheckYourEmail message={lookup.data} />;

  return (
    <AccountPage title="Look up an order">
      <Card>
        <p className="mb-5 text-stone-700">
          Ordered without an account? Enter the order number from your confirmation email (the {LIMITS.orderIdDisplayLength} characters after #) and the email
          you ordered with. We will email you a link to see the order.
        </p>
        <form onSubmit={(e) => void form.handleSubmit((values) => lookup.mutate(values))(e)} noValidate className="grid gap-4">
          {lookup.isError && <ErrorNote>{serverMessageOf(lookup.error) ?? 'The lookup could not be sent. Please try again.'}</ErrorNote>}
          <LabelledField label="Order number" autoComplete="off" placeholder="e.g. 1a2b3c4d" error={form.formState.errors.orderNumber} {...form.register('orderNumber')} />
          <LabelledField label="Email" type="email" autoComplete="email" error={form.formState.errors.email} {...form.register('email')} />
          <Button type="submit" disabled={lookup.isPending}>
            {lookup.isPending && <Loader2 className="animate-spin" aria-hidden="true" />}
            Email me a link
          </Button>
        </form>
        <p className="mt-5 text-sm text-stone-600">
          Have an account?{' '}
          <a href="/api/login?returnTo=%2Faccount%2Forders" className={linkClass}>
            Log in to see all your orders
          </a>
        </p>
      </Card>
    </AccountPage>
  );
}
