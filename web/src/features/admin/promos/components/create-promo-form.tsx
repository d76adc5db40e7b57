import { ADMIN_MESSAGES } from '@nh/shared/contracts/admin';
import type { DiscountType } from '@nh/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Loader2 } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { toast } from '@/components/ui/use-toast';
import { serverMessageOf } from '@/lib/query-client';
import { createPromoCode, promoQueries } from '../api';

/** Create Promo Code: the code, a percentage or a fixed amount, and its value. */
export function CreatePromoForm() {
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
      void queryClient.invalidateQueries({ queryKey: promoQueries.list.queryKey });
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
