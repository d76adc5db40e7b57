/** The order table's paging line: "1–50 of 1,000+ orders", rows per page, Previous and Next (the server pages). */
import { useId } from 'react';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { hasNextPage, PAGE_SIZES, totalText, type OrderQuery } from '../order-query';

export function OrderPager({ query, shown, total, capped, onChange }: { query: OrderQuery; shown: number; total: number; capped: boolean; onChange: (next: OrderQuery) => void }) {
  const sizeId = useId();
  const first = query.page * query.pageSize;
  return (
    <nav className="flex flex-wrap items-center justify-between gap-3 text-sm text-stone-600" aria-label="Order pages">
      <span data-testid="orders-count">
        {shown > 0 ? `${first + 1}–${first + shown} of ${totalText(total, capped)}` : totalText(total, capped)}
      </span>
      <div className="flex flex-wrap items-center gap-3">
        <div className="flex items-center gap-2">
          <Label htmlFor={sizeId} className="font-normal text-stone-600">
            Rows per page
          </Label>
          <Select value={String(query.pageSize)} onValueChange={(v) => onChange({ ...query, pageSize: Number(v), page: 0 })}>
            <SelectTrigger id={sizeId} className="h-8 w-20">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              {PAGE_SIZES.map((size) => (
                <SelectItem key={size} value={String(size)}>
                  {size}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
        <div className="flex gap-2">
          <Button variant="outline" size="sm" disabled={query.page === 0} onClick={() => onChange({ ...query, page: query.page - 1 })}>
            Previous
          </Button>
          <Button variant="outline" size="sm" disabled={!hasNextPage(query, shown, total, capped)} onClick={() => onChange({ ...query, page: query.page + 1 })}>
            Next
          </Button>
        </div>
      </div>
    </nav>
  );
}
