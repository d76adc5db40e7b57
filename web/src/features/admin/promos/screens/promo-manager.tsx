import { ADMIN_MESSAGES, type AdminPromoCode } from '@nh/shared/contracts/admin';
import type { DiscountType } from '@nh/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Loader2 } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { toast } from '@/components/ui/use-toast';
import { serverMessageOf } from '@/lib/query-client';
import { usePageMeta } from '@/lib/use-page-meta';
import { adminKeys, createPromoCode, listPromoCodes, togglePromoCode } from '../api';
import { AdminPage } from '../components/admin-frame';
import { RoleGate } from '../components/role-gate';

const describeValue = (promo: Pick<AdminPromoCode, 'discountType' | 'discountValue'>) =>
  promo.discountType === 'percentage' ? `${promo.discountValue}% off` : `$${promo.discountValue} off`;

function CreatePromoForm() {
  const ids = { code: useId(), type: useId(), value: useId() };
  const queryClient = useQueryClient();
  const [code, setCode] = useState('');
  const [discountType, setDiscountType] = useState<DiscountType>('percentage');
  const [value, setValue] = useState('');
  const create = useMutation({
    mutationFn: () => createPromoCode({ code: code.trim(), discountType, discountValue: Number.parseInt(value, 10) }),
    onSuccess: () => {
      toast({ title: ADMIN_MESSAGES.promoCreated });
      setCode('');
      setValue('');
      void queryClient.invalidateQueries({ queryKey: adminKeys.promoCodes });
    },
    onError: (error) => toast({ title: 'Error', description: serverMessageOf(error) ?? 'Failed to create promo code', variant: 'destructive' }),
  });
  const ready = code.trim() !== '' && value.trim() !== '' && Number.isFinite(Number.parseInt(value, 10));

  function submit(event: FormEvent) {
    event.preventDefault();
    if (ready && !create.isPending) create.mutate();
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>Create Promo Code</CardTitle>
      </CardHeader>
      <CardContent>
        <form onSubmit={submit} className="grid gap-4 sm:grid-cols-[2fr_1fr_1fr_auto] sm:items-end">
          <div className="space-y-1.5">
            <Label htmlFor={ids.code}>Code</Label>
            <Input id={ids.code} value={code} maxLength={50} onChange={(e) => setCode(e.target.value.toUpperCase())} placeholder="SUMMER15" />
          </div>
          <div className="space-y-1.5">
            <Label htmlFor={ids.type}>Discount Type</Label>
            <Select value={discountType} onValueChange={(v) => setDiscountType(v as DiscountType)}>
              <SelectTrigger id={ids.type}>
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                <SelectItem value="percentage">Percentage (%)</SelectItem>
                <SelectItem value="fixed">Fixed ($)</SelectItem>
              </SelectContent>
            </Select>
          </div>
          <div className="space-y-1.5">
            <Label htmlFor={ids.value}>Discount Value</Label>
            <Input id={ids.value} type="number" inputMode="numeric" min={1} step={1} value={value} onChange={(e) => setValue(e.target.value)} />
          </div>
          <Button type="submit" disabled={!ready || create.isPending}>
            {create.isPending && <Loader2 className="animate-spin" aria-hidden="true" />}
            Create
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}

function PromoList() {
  const queryClient = useQueryClient();
  const codes = useQuery({ queryKey: adminKeys.promoCodes, queryFn: listPromoCodes });
  const toggle = useMutation({
    mutationFn: togglePromoCode,
    onSuccess: (updated) => queryClient.setQueryData<AdminPromoCode[]>(adminKeys.promoCodes, (list) => list?.map((p) => (p.id === updated.id ? updated : p))),
    onError: (error) => toast({ title: 'Error', description: serverMessageOf(error) ?? 'Failed to update promo code', variant: 'destructive' }),
  });

  return (
    <Card>
      <CardHeader>
        <CardTitle>Promo Codes</CardTitle>
      </CardHeader>
      <CardContent>
        {codes.isPending ? (
          <p className="text-stone-600">Loading promo codes...</p>
        ) : codes.isError ? (
          <p className="text-red-700">Failed to load promo codes.</p>
        ) : codes.data.length === 0 ? (
          <p className="text-stone-600">No promo codes yet.</p>
        ) : (
          <ul className="divide-y divide-stone-200">
            {codes.data.map((promo) => (
              <li key={promo.id} className="flex flex-wrap items-center justify-between gap-3 py-3" data-testid={`promo-${promo.code}`}>
                <div className="flex items-center gap-3">
                  <span className="font-mono font-semibold">{promo.code}</span>
                  <span className="text-sm text-stone-600">{describeValue(promo)}</span>
                  <Badge variant={promo.isActive ? 'default' : 'outline'}>{promo.isActive ? 'Active' : 'Inactive'}</Badge>
                </div>
                <label className="flex items-center gap-2 text-sm">
                  <input
                    type="checkbox"
                    role="switch"
                    className="size-4 accent-brand-700"
                    checked={promo.isActive}
                    disabled={toggle.isPending && toggle.variables === promo.id}
                    onChange={() => toggle.mutate(promo.id)}
                    aria-label={`${promo.code} active`}
                  />
                  Active
                </label>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

/** /admin/promos: the Promo Code Manager (the dashboard has /admin: docs/decisions/admin.md). */
export default function PromoManagerPage() {
  usePageMeta({ title: 'Promo Code Manager' });
  return (
    <AdminPage title="Promo Code Manager">
      <RoleGate permission="promos.manage">
        <div className="grid gap-6">
          <CreatePromoForm />
          <PromoList />
        </div>
      </RoleGate>
    </AdminPage>
  );
}
