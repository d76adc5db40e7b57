/** The order table's filters: search, status, NetSuite status, the date range placed and a promo code. */
import { LIMITS } from '@nh/shared/constants';
import { ORDER_STATUSES, PAYMENT_STATE_LABELS, PAYMENT_STATES } from '@nh/shared/contracts/admin';
import { SYNC_STATUSES } from '@nh/shared/contracts/admin-sync';
import { Search, X } from 'lucide-react';
import { useEffect, useEffectEvent, useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { FilterSelect } from '../../ui/filter-form';
import { statusLabel, SYNC_STATUS_LABELS } from '../../ui/status-labels';
import { DEFAULT_ORDER_QUERY, type OrderQuery } from '../order-query';

const TYPING_DELAY_MS = 300;

type FilterChange = Partial<Omit<OrderQuery, 'page' | 'pageSize' | 'sort' | 'direction'>>;

/** Text typed into a box, handed on once typing pauses (unless it is what is applied already). */
function useTyped(value: string, onSettled: (text: string) => void): [string, (text: string) => void] {
  const [typed, setTyped] = useState(value);
  const settle = useEffectEvent((text: string) => {
    if (text !== value) onSettled(text);
  });
  useEffect(() => {
    const timer = setTimeout(() => settle(typed), TYPING_DELAY_MS);
    return () => clearTimeout(timer);
  }, [typed]);
  return [typed, setTyped];
}

export const hasFilters = (query: OrderQuery): boolean =>
  (['search', 'status', 'netsuiteStatus', 'from', 'to', 'promo', 'paymentState'] as const).some((key) => query[key] !== DEFAULT_ORDER_QUERY[key]);

export function OrderFilters({ query, onChange, problem }: { query: OrderQuery; onChange: (change: FilterChange) => void; problem: string | null }) {
  const ids = { search: useId(), status: useId(), payment: useId(), netsuite: useId(), from: useId(), to: useId(), promo: useId(), problem: useId() };
  const [search, setSearch] = useTyped(query.search, (text) => onChange({ search: text }));
  const [promo, setPromo] = useTyped(query.promo, (text) => onChange({ promo: text }));

  function clear() {
    setSearch('');
    setPromo('');
    onChange({ search: '', status: '', netsuiteStatus: '', from: '', to: '', promo: '', paymentState: '' });
  }

  return (
    <div className="grid gap-4" role="search" aria-label="Order filters">
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <div className="space-y-1.5 sm:col-span-2">
          <Label htmlFor={ids.search}>Search orders</Label>
          <div className="relative">
            <Search className="absolute left-3 top-1/2 size-4 -translate-y-1/2 text-stone-400" aria-hidden="true" />
            <Input id={ids.search} type="search" className="pl-9" placeholder="Order id, name or email" maxLength={200} value={search} onChange={(e) => setSearch(e.target.value)} />
          </div>
        </div>
        <FilterSelect
          id={ids.status}
          label="Status"
          value={query.status}
          onChange={(v) => onChange({ status: v })}
          anyLabel="All statuses"
          options={ORDER_STATUSES}
          labelOf={(s) => statusLabel(s)}
        />
        <FilterSelect
          id={ids.payment}
          label="Payment"
          value={query.paymentState}
          onChange={(v) => onChange({ paymentState: v })}
          anyLabel="Any payment"
          options={PAYMENT_STATES}
          labelOf={(s) => PAYMENT_STATE_LABELS[s]}
        />
        <FilterSelect
          id={ids.netsuite}
          label="NetSuite status"
          value={query.netsuiteStatus}
          onChange={(v) => onChange({ netsuiteStatus: v })}
          anyLabel="Any NetSuite status"
          options={SYNC_STATUSES}
          labelOf={(s) => SYNC_STATUS_LABELS[s]}
        />
        <div className="space-y-1.5">
          <Label htmlFor={ids.from}>Placed from</Label>
          <Input
            id={ids.from}
            type="date"
            value={query.from}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? ids.problem : undefined}
            onChange={(e) => onChange({ from: e.target.value })}
          />
        </div>
        <div className="space-y-1.5">
          <Label htmlFor={ids.to}>Placed to</Label>
          <Input id={ids.to} type="date" value={query.to} aria-invalid={problem ? true : undefined} aria-describedby={problem ? ids.problem : undefined} onChange={(e) => onChange({ to: e.target.value })} />
        </div>
        <div className="space-y-1.5">
          <Label htmlFor={ids.promo}>Promo code</Label>
          <Input id={ids.promo} className="uppercase" maxLength={LIMITS.promoCodeMaxLength} placeholder="Any code" value={promo} onChange={(e) => setPromo(e.target.value.toUpperCase())} />
        </div>
        <div className="flex items-end">
          {hasFilters(query) && (
            <Button type="button" variant="outline" onClick={clear}>
              <X aria-hidden="true" />
              Clear filters
            </Button>
          )}
        </div>
      </div>
      {problem && (
        <p id={ids.problem} className="text-sm text-red-600" role="alert">
          {problem}
        </p>
      )}
    </div>
  );
}
