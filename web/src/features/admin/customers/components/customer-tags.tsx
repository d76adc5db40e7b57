/** The customer's tags: shown as badges; staff who may edit add and remove them (the whole set is saved). */
import { CUSTOMER_MESSAGES, customerTagSchema } from '@nh/shared/contracts/admin-customers';
import { useMutation } from '@tanstack/react-query';
import { X } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { serverMessageOf } from '@/lib/query-client';
import { setCustomerTags } from '../api';

export function CustomerTags({ customerId, tags, canEdit, onSaved }: { customerId: string; tags: readonly string[]; canEdit: boolean; onSaved: () => void }) {
  const id = useId();
  const [draft, setDraft] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: (next: string[]) => setCustomerTags(customerId, next),
    onSuccess: () => {
      setDraft('');
      setProblem(null);
      onSaved();
    },
    onError: (error) => setProblem(serverMessageOf(error) ?? 'The tags could not be saved.'),
  });
  const add = (e: FormEvent) => {
    e.preventDefault();
    const tag = customerTagSchema.safeParse(draft);
    if (!tag.success) {
      setProblem(CUSTOMER_MESSAGES.tag);
      return;
    }
    save.mutate([...new Set([...tags, tag.data])]);
  };
  return (
    <div className="grid gap-2">
      <ul className="flex flex-wrap gap-1" aria-label="Tags">
        {tags.length === 0 && <li className="text-sm text-stone-600">No tags</li>}
        {tags.map((t) => (
          <li key={t}>
            <Badge variant="secondary" className="gap-1">
              {t}
              {canEdit && (
                <button type="button" aria-label={`Remove tag ${t}`} disabled={save.isPending} onClick={() => save.mutate(tags.filter((x) => x !== t))}>
                  <X className="size-3" aria-hidden="true" />
                </button>
              )}
            </Badge>
          </li>
        ))}
      </ul>
      {canEdit && (
        <form onSubmit={add} noValidate className="flex flex-wrap items-end gap-2">
          <div className="space-y-1.5">
            <Label htmlFor={id}>Add a tag</Label>
            <Input id={id} value={draft} maxLength={30} placeholder="vip" onChange={(e) => setDraft(e.target.value)} />
          </div>
          <Button type="submit" variant="outline" disabled={save.isPending}>
            Add tag
          </Button>
        </form>
      )}
      {problem && (
        <p className="text-sm text-red-600" role="alert">
          {problem}
        </p>
      )}
    </div>
  );
}
