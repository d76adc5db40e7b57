/** The moderation list: filter by visibility, product and rating; hide, show and delete (after a confirmation). */
import { formatOrderDate } from '@nh/shared/contracts/admin';
import {
  ADMIN_REVIEW_MESSAGES,
  REVIEW_VISIBILITIES,
  REVIEW_VISIBILITY_LABELS,
  type AdminReview,
  type ReviewVisibility,
} from '@nh/shared/contracts/admin-reviews';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { BadgeCheck, Eye, EyeOff, Loader2, Star, Trash2 } from 'lucide-react';
import { useId, useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { toast } from '@/components/ui/use-toast';
import { serverMessageOf } from '@/lib/query-client';
import { cn } from '@/lib/utils';
import { productQueries } from '../../catalog/api';
import { Pager } from '../../ui/pager';
import { deleteReview, reviewQueries, REVIEWS_PAGE_SIZE, setReviewHidden, type ReviewFilters } from '../api';

const ANY = 'any';

/** The filters of the URL; anything unknown reads as "any". */
export function reviewFiltersOf(params: URLSearchParams): ReviewFilters {
  const show = params.get('show') ?? 'all';
  const productId = params.get('productId') ?? '';
  const rating = params.get('rating') ?? '';
  const offset = Number.parseInt(params.get('offset') ?? '0', 10);
  return {
    show: (REVIEW_VISIBILITIES as readonly string[]).includes(show) ? (show as ReviewVisibility) : 'all',
    productId: /^[1-9]\d{0,9}$/.test(productId) ? productId : '',
    rating: /^[1-5]$/.test(rating) ? rating : '',
    offset: Number.isFinite(offset) && offset > 0 ? offset : 0,
  };
}

export function reviewParamsOf(filters: ReviewFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.show !== 'all') params.set('show', filters.show);
  if (filters.productId) params.set('productId', filters.productId);
  if (filters.rating) params.set('rating', filters.rating);
  if (filters.offset > 0) params.set('offset', String(filters.offset));
  return params;
}

function Filters({ filters, onChange }: { filters: ReviewFilters; onChange: (filters: ReviewFilters) => void }) {
  const ids = { show: useId(), product: useId(), rating: useId() };
  const products = useQuery(productQueries.names);
  const set = (change: Partial<ReviewFilters>) => onChange({ ...filters, ...change, offset: 0 });
  return (
    <Card>
      <CardContent className="grid grid-cols-1 gap-4 pt-6 sm:grid-cols-3" role="group" aria-label="Review filters">
        <div className="space-y-1.5">
          <Label htmlFor={ids.show}>Show</Label>
          <Select value={filters.show} onValueChange={(v) => set({ show: v as ReviewVisibility })}>
            <SelectTrigger id={ids.show}>
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              {REVIEW_VISIBILITIES.map((v) => (
                <SelectItem key={v} value={v}>
                  {REVIEW_VISIBILITY_LABELS[v]}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
        <div className="space-y-1.5">
          <Label htmlFor={ids.product}>Product</Label>
          <Select value={filters.productId || ANY} onValueChange={(v) => set({ productId: v === ANY ? '' : v })}>
            <SelectTrigger id={ids.product}>
              <SelectValue placeholder={products.isPending ? 'Loading products...' : undefined} />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value={ANY}>Any product</SelectItem>
              {(products.data?.products ?? []).map((p) => (
                <SelectItem key={p.id} value={String(p.id)}>
                  {p.name}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
        <div className="space-y-1.5">
          <Label htmlFor={ids.rating}>Rating</Label>
          <Select value={filters.rating || ANY} onValueChange={(v) => set({ rating: v === ANY ? '' : v })}>
            <SelectTrigger id={ids.rating}>
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value={ANY}>Any rating</SelectItem>
              {[5, 4, 3, 2, 1].map((n) => (
                <SelectItem key={n} value={String(n)}>
                  {n} {n === 1 ? 'star' : 'stars'}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
      </CardContent>
    </Card>
  );
}

function Stars({ rating }: { rating: number }) {
  return (
    <span className="inline-flex items-center gap-0.5" title={`${rating} out of 5`}>
      {[1, 2, 3, 4, 5].map((n) => (
        <Star key={n} className={cn('size-4', n <= rating ? 'fill-amber-400 text-amber-500' : 'text-stone-300')} aria-hidden="true" />
      ))}
      <span className="sr-only">{rating} out of 5 stars</span>
    </span>
  );
}

function ReviewCard({ review, onDelete }: { review: AdminReview; onDelete: (review: AdminReview) => void }) {
  const queryClient = useQueryClient();
  const visibility = useMutation({
    mutationFn: (hidden: boolean) => setReviewHidden(review.id, hidden),
    onSuccess: (updated) => {
      toast({ title: updated.hidden ? ADMIN_REVIEW_MESSAGES.hidden : ADMIN_REVIEW_MESSAGES.shown });
      void queryClient.invalidateQueries({ queryKey: reviewQueries.all });
    },
    onError: (error) => toast({ title: 'The review could not be changed', description: serverMessageOf(error), variant: 'destructive' }),
  });
  const label = review.title ? `"${review.title}" by ${review.customerName}` : `the review by ${review.customerName}`;
  return (
    <li
      className={cn('grid gap-3 p-4 sm:grid-cols-[minmax(0,1fr)_auto]', review.hidden && 'bg-stone-50')}
      data-testid={`review-${review.id}`}
    >
      <div className="min-w-0 space-y-1">
        <div className="flex flex-wrap items-center gap-2">
          <Stars rating={review.rating} />
          <Badge variant={review.hidden ? 'warning' : 'secondary'}>{review.hidden ? 'Hidden' : 'Shown on the shop'}</Badge>
          {review.verified && (
            <Badge variant="outline">
              <BadgeCheck aria-hidden="true" />
              Verified buyer
            </Badge>
          )}
        </div>
        {review.title && <p className="font-semibold">{review.title}</p>}
        <p className="whitespace-pre-line break-words text-sm text-stone-800">{review.comment}</p>
        <p className="text-xs text-stone-600">
          <span className="font-medium text-stone-800">{review.productName}</span> · {review.customerName} ({review.customerEmail}) ·{' '}
          {formatOrderDate(review.createdAt)}
        </p>
      </div>
      <div className="flex flex-wrap items-start gap-2 sm:flex-col sm:items-stretch">
        <Button
          variant="outline"
          size="sm"
          onClick={() => visibility.mutate(!review.hidden)}
          disabled={visibility.isPending}
          aria-label={`${review.hidden ? 'Show' : 'Hide'} ${label}`}
        >
          {visibility.isPending ? (
            <Loader2 className="animate-spin" aria-hidden="true" />
          ) : review.hidden ? (
            <Eye aria-hidden="true" />
          ) : (
            <EyeOff aria-hidden="true" />
          )}
          {review.hidden ? 'Show' : 'Hide'}
        </Button>
        <Button variant="destructive" size="sm" onClick={() => onDelete(review)} aria-label={`Delete ${label}`}>
          <Trash2 aria-hidden="true" />
          Delete
        </Button>
      </div>
    </li>
  );
}

export function ReviewModeration({ filters, onChange }: { filters: ReviewFilters; onChange: (filters: ReviewFilters) => void }) {
  const queryClient = useQueryClient();
  const page = useQuery({ ...reviewQueries.list(filters), placeholderData: keepPreviousData });
  const [toDelete, setToDelete] = useState<AdminReview | null>(null);
  const remove = useMutation({
    mutationFn: (review: AdminReview) => deleteReview(review.id),
    onSuccess: () => {
      toast({ title: ADMIN_REVIEW_MESSAGES.deleted });
      setToDelete(null);
      void queryClient.invalidateQueries({ queryKey: reviewQueries.all });
    },
    onError: (error) => {
      toast({ title: 'The review could not be deleted', description: serverMessageOf(error), variant: 'destructive' });
      setToDelete(null);
    },
  });

  return (
    <div className="grid grid-cols-1 gap-6">
      <Filters filters={filters} onChange={onChange} />
      {page.isPending ? (
        <p className="text-stone-600">Loading reviews...</p>
      ) : page.isError ? (
        <p className="text-red-700">{serverMessageOf(page.error) ?? 'Failed to load reviews.'}</p>
      ) : page.data.reviews.length === 0 ? (
        <p className="py-8 text-center text-stone-600">No reviews match these filters.</p>
      ) : (
        <div className="grid grid-cols-1 gap-4">
          <Card>
            <ul className="divide-y divide-stone-200" aria-busy={page.isFetching} aria-label="Reviews, newest first">
              {page.data.reviews.map((review) => (
                <ReviewCard key={review.id} review={review} onDelete={setToDelete} />
              ))}
            </ul>
          </Card>
          <Pager
            offset={filters.offset}
            shown={page.data.reviews.length}
            total={page.data.total}
            pageSize={REVIEWS_PAGE_SIZE}
            onPage={(offset) => onChange({ ...filters, offset })}
          />
        </div>
      )}

      <Dialog open={toDelete !== null} onOpenChange={(open) => !open && !remove.isPending && setToDelete(null)}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Delete review?</DialogTitle>
            <DialogDescription>
              The review by {toDelete?.customerName} of {toDelete?.productName} is removed for good and no longer counts in the
              product&apos;s rating. To take it off the shop but keep it, hide it instead.
            </DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <Button variant="outline" onClick={() => setToDelete(null)} disabled={remove.isPending}>
              Cancel
            </Button>
            <Button variant="destructive" onClick={() => toDelete && remove.mutate(toDelete)} disabled={remove.isPending}>
              {remove.isPending && <Loader2 className="animate-spin" aria-hidden="true" />}
              Delete review
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </div>
  );
}
