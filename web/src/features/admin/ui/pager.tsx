/** The paging line under the back office's paged lists (plans, plans at risk, reviews, products, the audit trail). */
import { Button } from '@/components/ui/button';

/** "1–50 of 120" with Previous and Next. */
export function Pager({
  offset,
  shown,
  total,
  pageSize,
  onPage,
}: {
  offset: number;
  shown: number;
  total: number;
  pageSize: number;
  onPage: (offset: number) => void;
}) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-2 text-sm text-stone-600">
      <span>
        {offset + 1}–{offset + shown} of {total}
      </span>
      {total > pageSize && (
        <div className="flex gap-2">
          <Button variant="outline" size="sm" disabled={offset === 0} onClick={() => onPage(Math.max(0, offset - pageSize))}>
            Previous
          </Button>
          <Button variant="outline" size="sm" disabled={offset + pageSize >= total} onClick={() => onPage(offset + pageSize)}>
            Next
          </Button>
        </div>
      )}
    </div>
  );
}
