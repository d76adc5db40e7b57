/** A note staff write on a customer or an order: author and time are the server's. */
import { CUSTOMER_MESSAGES, CUSTOMER_NOTE_MAX_LENGTH, customerNoteInputSchema, type CustomerNote } from '@nh/shared/contracts/admin-customers';
import { formatOrderDate } from '@nh/shared/contracts/admin';
import { useMutation } from '@tanstack/react-query';
import { Loader2 } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { toast } from '@/components/ui/use-toast';
import { serverMessageOf } from '@/lib/query-client';

export function NoteForm({ label, save, onSaved }: { label: string; save: (body: string) => Promise<CustomerNote>; onSaved: () => void }) {
  const id = useId();
  const [body, setBody] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const write = useMutation({
    mutationFn: save,
    onSuccess: () => {
      setBody('');
      toast({ title: 'Note saved' });
      onSaved();
    },
    onError: (error) => setProblem(serverMessageOf(error) ?? 'The note could not be saved.'),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const checked = customerNoteInputSchema.safeParse({ body });
    if (!checked.success) {
      setProblem(checked.error.issues[0]?.message ?? CUSTOMER_MESSAGES.noteRequired);
      return;
    }
    setProblem(null);
    write.mutate(checked.data.body);
  };
  return (
    <form onSubmit={submit} noValidate className="grid gap-2">
      <Label htmlFor={id}>{label}</Label>
      <Textarea id={id} value={body} maxLength={CUSTOMER_NOTE_MAX_LENGTH} rows={3} onChange={(e) => setBody(e.target.value)} placeholder="Called, reship approved" />
      {problem && (
        <p className="text-sm text-red-600" role="alert">
          {problem}
        </p>
      )}
      <div>
        <Button type="submit" disabled={write.isPending}>
          {write.isPending && <Loader2 className="animate-spin" aria-hidden="true" />}
          Save note
        </Button>
      </div>
    </form>
  );
}

export function NoteList({ notes, empty }: { notes: readonly CustomerNote[]; empty: string }) {
  if (notes.length === 0) return <p className="text-sm text-stone-600">{empty}</p>;
  return (
    <ul className="divide-y divide-stone-100" aria-label="Notes">
      {notes.map((n) => (
        <li key={n.id} className="py-2" data-testid={`note-${n.id}`}>
          <p className="whitespace-pre-line break-words text-sm text-stone-900">{n.body}</p>
          <p className="text-xs text-stone-500">
            {n.author} · {formatOrderDate(n.at)}
          </p>
        </li>
      ))}
    </ul>
  );
}
