/**
 * The owner's auto-approval rule of shoppers' claims (issue 23): on or off, the most a claim may be worth
 * and the months within which it must be the customer's first; saved with PUT /api/admin/claims/settings.
 */
import { claimSettingsSchema, type ClaimSettings } from '@nh/shared/contracts/claims';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { serverMessageOf } from '@/lib/query-client';
import { claimSettingsQuery, saveClaimSettings } from '../api';

function RuleForm({ initial }: { initial: ClaimSettings }) {
  const ids = { on: useId(), amount: useId(), months: useId() };
  const queryClient = useQueryClient();
  const [autoApprove, setAutoApprove] = useState(initial.autoApprove);
  const [maxAmount, setMaxAmount] = useState(initial.maxAmount);
  const [months, setMonths] = useState(String(initial.windowMonths));
  const [problem, setProblem] = useState<string | null>(null);
  const save = useMutation({ mutationFn: saveClaimSettings, onSuccess: (saved) => queryClient.setQueryData(claimSettingsQuery().queryKey, saved) });
  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = claimSettingsSchema.safeParse({ autoApprove, maxAmount: maxAmount.trim(), windowMonths: Number(months) });
    if (!parsed.success) return setProblem(parsed.error.issues[0]?.message ?? 'Please check the rule.');
    setProblem(null);
    save.mutate(parsed.data);
  }
  const shown = problem ?? (save.isError ? (serverMessageOf(save.error) ?? 'The rule could not be saved.') : null);
  return (
    <form onSubmit={submit} noValidate aria-label="Auto-approval rule" className="mb-6 grid gap-3 rounded-lg border border-stone-200 bg-white p-4">
      <p className="font-medium">Auto-approval of customers’ reports</p>
      <label htmlFor={ids.on} className="flex items-center gap-2 text-sm">
        <input id={ids.on} type="checkbox" checked={autoApprove} onChange={(e) => setAutoApprove(e.target.checked)} />
        Send a free replacement at once for a customer’s first claim within the months below, worth at most the amount below
      </label>
      <div className="flex flex-wrap gap-4">
        <div className="grid gap-1">
          <Label htmlFor={ids.amount}>Most a claim may be worth ($)</Label>
          <Input id={ids.amount} className="w-32" inputMode="decimal" value={maxAmount} onChange={(e) => setMaxAmount(e.target.value)} />
        </div>
        <div className="grid gap-1">
          <Label htmlFor={ids.months}>Months</Label>
          <Input id={ids.months} className="w-24" inputMode="numeric" value={months} onChange={(e) => setMonths(e.target.value)} />
        </div>
      </div>
      {shown && (
        <p role="alert" className="text-sm text-red-700">
          {shown}
        </p>
      )}
      {save.isSuccess && !shown && <p className="text-sm text-emerald-800">Rule saved.</p>}
      <div>
        <Button type="submit" disabled={save.isPending}>
          Save rule
        </Button>
      </div>
    </form>
  );
}

export function ClaimRuleForm() {
  const settings = useQuery(claimSettingsQuery());
  if (!settings.data) return null;
  return <RuleForm initial={settings.data} />;
}
