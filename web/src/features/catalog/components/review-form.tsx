import { zodResolver } from '@hookform/resolvers/zod';
import { reviewFormDefaults, reviewFormSchema, type ReviewForm as ReviewFormValues } from '@nh/shared/contracts/reviews';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { BadgeCheck, Star } from 'lucide-react';
import { Controller, useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { toast } from '@/components/ui/use-toast';
import { apiRequest, serverMessageOf } from '@/lib/query-client';
import { cn } from '@/lib/utils';
import { reviewsQuery } from '../api';

type Output = ReviewFormValues;

function FieldError({ id, message }: { id: string; message?: string }) {
  if (!message) return null;
  return (
    <p id={id} role="alert" className="text-sm text-red-600">
      {message}
    </p>
  );
}

/**
 * Review form (storefront §5): rating 1-5 required, name, email (pre-filled and locked when a default
 * is supplied), optional title, comment of at least 10 characters. With an orderId the review is sent
 * as a verified-purchase review (the server checks the order).
 */
export function ReviewForm({
  productId,
  orderId,
  defaultEmail,
}: {
  productId: number;
  orderId?: string | null;
  defaultEmail?: string | null;
}) {
  const queryClient = useQueryClient();
  const form = useForm<ReviewFormValues, unknown, Output>({
    resolver: zodResolver(reviewFormSchema),
    defaultValues: { ...reviewFormDefaults, customerEmail: defaultEmail ?? '' },
  });
  const { register, handleSubmit, formState, control, reset } = form;
  const errors = formState.errors;

  const submit = useMutation({
    mutationFn: async (values: Output) => {
      const res = await apiRequest('POST', `/api/products/${productId}/reviews`, {
        ...values,
        title: values.title?.trim() ? values.title : undefined,
        productId,
        ...(orderId ? { orderId } : {}),
      });
      return res.json() as Promise<unknown>;
    },
    onSuccess: async () => {
      toast({
        title: 'Review submitted!',
        description: orderId
          ? 'Thank you for your verified purchase review!'
          : 'Thank you for your feedback. Your review will appear shortly.',
      });
      reset({ ...reviewFormDefaults, customerEmail: defaultEmail ?? '' });
      await queryClient.invalidateQueries({ queryKey: reviewsQuery(productId).queryKey });
    },
    onError: (error) => {
      toast({
        title: 'Error',
        description: serverMessageOf(error) || 'Failed to submit review. Please try again.',
        variant: 'destructive',
      });
    },
  });

  return (
    <form
      onSubmit={handleSubmit((values) => submit.mutate(values))}
      noValidate
      className="space-y-5 rounded-2xl bg-white p-6 shadow-sm ring-1 ring-stone-200"
      aria-labelledby="review-form-heading"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id="review-form-heading" className="text-lg font-semibold text-brand-900">
          Write a Review
        </h3>
        {orderId && (
          <span
            className="inline-flex items-center gap-1 rounded-full bg-brand-100 px-3 py-1 text-xs font-semibold text-brand-900"
            data-testid="verified-purchase-label"
          >
            <BadgeCheck className="size-4" aria-hidden="true" /> Verified Purchase
          </span>
        )}
      </div>

      <fieldset>
        <legend className="text-sm font-medium text-stone-800">Rating</legend>
        <Controller
          control={control}
          name="rating"
          render={({ field }) => (
            <div
              role="radiogroup"
              aria-label="Rating"
              aria-invalid={errors.rating ? true : undefined}
              aria-describedby={errors.rating ? 'rating-error' : undefined}
              className="mt-2 flex gap-1"
            >
              {[1, 2, 3, 4, 5].map((n) => (
                <button
                  key={n}
                  type="button"
                  role="radio"
                  aria-checked={field.value === n}
                  aria-label={`${n} star${n === 1 ? '' : 's'}`}
                  onClick={() => field.onChange(n)}
                  className="rounded p-0.5 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
                >
                  <Star
                    className={cn(
                      'size-7 transition',
                      n <= (field.value ?? 0) ? 'fill-amber-400 text-amber-400' : 'fill-stone-100 text-stone-300 hover:text-amber-300',
                    )}
                    aria-hidden="true"
                  />
                </button>
              ))}
            </div>
          )}
        />
        <FieldError id="rating-error" message={errors.rating?.message} />
      </fieldset>

      <div className="grid gap-5 sm:grid-cols-2">
        <div className="space-y-2">
          <Label htmlFor="review-name">Name</Label>
          <Input
            id="review-name"
            autoComplete="name"
            aria-invalid={errors.customerName ? true : undefined}
            aria-describedby={errors.customerName ? 'review-name-error' : undefined}
            {...register('customerName')}
          />
          <FieldError id="review-name-error" message={errors.customerName?.message} />
        </div>
        <div className="space-y-2">
          <Label htmlFor="review-email">Email</Label>
          <Input
            id="review-email"
            type="email"
            autoComplete="email"
            readOnly={!!defaultEmail}
            aria-invalid={errors.customerEmail ? true : undefined}
            aria-describedby={`review-email-help${errors.customerEmail ? ' review-email-error' : ''}`}
            className={cn(defaultEmail && 'bg-stone-100')}
            {...register('customerEmail')}
          />
          <p id="review-email-help" className="text-xs text-stone-500">
            Your email is never published. It is only used to verify your purchase.
          </p>
          <FieldError id="review-email-error" message={errors.customerEmail?.message} />
        </div>
      </div>

      <div className="space-y-2">
        <Label htmlFor="review-title">Title (optional)</Label>
        <Input id="review-title" aria-invalid={errors.title ? true : undefined} {...register('title')} />
        <FieldError id="review-title-error" message={errors.title?.message} />
      </div>

      <div className="space-y-2">
        <Label htmlFor="review-comment">Review</Label>
        <Textarea
          id="review-comment"
          rows={4}
          aria-invalid={errors.comment ? true : undefined}
          aria-describedby={errors.comment ? 'review-comment-error' : undefined}
          {...register('comment')}
        />
        <FieldError id="review-comment-error" message={errors.comment?.message} />
      </div>

      <Button type="submit" disabled={submit.isPending}>
        {submit.isPending ? 'Submitting...' : 'Submit Review'}
      </Button>
    </form>
  );
}
