/**
 * The back office's one table (TanStack Table): every admin list and record table draws its columns
 * through it, so they share their markup (column headers with `scope`, row headers, captions, busy
 * state) and one of three looks. A table that sorts or selects rows (the order table) passes those
 * options; the others only their columns and rows.
 */
import {
  cellSpanningFeature,
  createColumnHelper,
  metaHelper,
  rowSelectionFeature,
  rowSortingFeature,
  tableFeatures,
  useTable,
  type Row,
  type RowData,
  type TableOptions,
} from '@tanstack/react-table';
import { ArrowDown, ArrowUp, ArrowUpDown } from 'lucide-react';
import type { ComponentProps, ReactNode } from 'react';
import { cn } from '@/lib/utils';

interface ColumnLook {
  /** Classes of the column's header and cells (alignment, width, wrapping). */
  className?: string;
  /** Its cells head their row (`<th scope="row">`). */
  rowHeader?: true;
}

const features = tableFeatures({ rowSortingFeature, rowSelectionFeature, cellSpanningFeature, columnMeta: metaHelper<ColumnLook>() });
type AdminTableFeatures = typeof features;
type AdminRow<TData extends RowData> = Row<AdminTableFeatures, TData>;

/** The helper that defines a table's columns: `const column = columnsOf<Plan>()`, then `column.display({ … })`. */
export const columnsOf = <TData extends RowData>() => createColumnHelper<AdminTableFeatures, TData>();

const LOOKS = {
  /** Filling a card: a shaded header band, roomy cells. */
  card: { head: 'border-b border-stone-200 bg-stone-50', cell: 'px-4 py-3', rows: 'divide-stone-200' },
  /** A card's list in a bordered box: the same band, tighter cells. */
  compact: { head: 'border-b border-stone-200 bg-stone-50', cell: 'px-3 py-2', rows: 'divide-stone-200' },
  /** Inside a card's content, beside other things: no band, cells spaced only between columns. */
  plain: { head: 'border-b border-stone-200', cell: 'py-2 pr-4 last:pr-0', rows: 'divide-stone-100' },
} as const;

type RowProps = ComponentProps<'tr'> & { [data: `data-${string}`]: string | undefined };

interface DataTableProps<TData extends RowData> {
  /** Made with `columnsOf`: once, outside the component, unless they act through its state (a row's buttons). */
  columns: TableOptions<AdminTableFeatures, TData>['columns'];
  data: readonly TData[];
  /** The row's id (its React key and its key in a selection). */
  rowId: (row: TData) => string;
  /** The table's own options beyond its columns and rows (sorting, selection). */
  options?: Omit<Partial<TableOptions<AdminTableFeatures, TData>>, 'features' | 'columns' | 'data' | 'getRowId'>;
  look?: keyof typeof LOOKS;
  /** Classes of the table itself (its minimum width). */
  className?: string;
  /** What the table lists, for screen readers (and shown above the table with `showCaption`). */
  caption?: ReactNode;
  showCaption?: boolean;
  label?: string;
  /** A new page is on its way (the current one stays shown meanwhile). */
  busy?: boolean;
  /** Attributes of a row's `<tr>` (its test id, a click). */
  rowProps?: (row: AdminRow<TData>) => RowProps;
}

const SORTED = { asc: 'ascending', desc: 'descending' } as const;

export function DataTable<TData extends RowData>({ columns, data, rowId, options, look = 'card', className, caption, showCaption = false, label, busy, rowProps }: DataTableProps<TData>) {
  const table = useTable({ features, columns, data, getRowId: rowId, enableSorting: false, ...options });
  const { head, cell: cellPadding, rows } = LOOKS[look];
  return (
    <table className={cn('w-full text-left text-sm', className)} aria-label={label} aria-busy={busy}>
      {caption && <caption className={showCaption ? 'mb-2 text-left font-semibold text-brand-900' : 'sr-only'}>{caption}</caption>}
      <thead className={cn(head, 'text-xs uppercase tracking-wide text-stone-600')}>
        {table.getHeaderGroups().map((group) => (
          <tr key={group.id}>
            {group.headers.map((header) => {
              const sortable = header.column.getCanSort();
              const sorted = header.column.getIsSorted();
              return (
                <th
                  key={header.id}
                  scope="col"
                  className={cn(cellPadding, 'font-semibold', header.column.columnDef.meta?.className)}
                  aria-sort={sortable ? (sorted ? SORTED[sorted] : 'none') : undefined}
                >
                  {sortable ? (
                    <button
                      type="button"
                      onClick={header.column.getToggleSortingHandler()}
                      className="relative inline-flex items-center gap-1 rounded uppercase tracking-wide hover:text-stone-900 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
                    >
                      <table.FlexRender header={header} />
                      {sorted === 'asc' ? (
                        <ArrowUp className="size-3.5" aria-hidden="true" />
                      ) : sorted === 'desc' ? (
                        <ArrowDown className="size-3.5" aria-hidden="true" />
                      ) : (
                        <ArrowUpDown className="size-3.5 text-stone-400" aria-hidden="true" />
                      )}
                      <span className="sr-only">{sorted ? ` (sorted ${SORTED[sorted]}; click to reverse)` : ' (click to sort)'}</span>
                    </button>
                  ) : header.isPlaceholder ? null : (
                    <table.FlexRender header={header} />
                  )}
                </th>
              );
            })}
          </tr>
        ))}
      </thead>
      <tbody className={cn('divide-y align-top', rows)}>
        {table.getRowModel().rows.map((row) => (
          <tr key={row.id} {...rowProps?.(row)}>
            {row
              .getAllCells()
              .filter((cell) => !cell.getIsCovered())
              .map((cell) => {
                const { className: columnClass, rowHeader } = cell.column.columnDef.meta ?? {};
                const Cell = rowHeader ? 'th' : 'td';
                const span = cell.getColSpan();
                return (
                  <Cell key={cell.id} scope={rowHeader ? 'row' : undefined} colSpan={span > 1 ? span : undefined} className={cn(cellPadding, rowHeader && 'font-medium', columnClass)}>
                    <table.FlexRender cell={cell} />
                  </Cell>
                );
              })}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
