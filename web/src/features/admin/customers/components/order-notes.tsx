/** Notes on an order (the admin order page): staff's notes, and a form for those who may write them. */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { serverMessageOf } from '@/lib/query-client';
import { useCan } from '../../shell/role-gate';
import { addOrderNote, customerQueries } from '../api';
import { NoteForm, NoteList } from './note-form';

export function OrderNotes({ orderId }: { orderId: string }) {
  const queryClient = useQueryClient();
  const canWrite = useCan('customers.edit');
  const canView = useCan('customers.view');
  const notes = useQuery(customerQueries.orderNotes(orderId));
  return (
    <Card>
      <CardHeader>
        <CardTitle>Notes</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4">
        {notes.isPending ? (
          <p className="text-sm text-stone-600">Loading notes...</p>
        ) : notes.isError ? (
          <p className="text-sm text-red-700">{serverMessageOf(notes.error) ?? 'Failed to load notes.'}</p>
        ) : (
          <>
            {notes.data.customerId && canView && (
              <Link to={`/admin/customers/${notes.data.customerId}`} className="text-sm font-medium text-brand-700 hover:underline">
                Customer page (every order, note and email of this customer)
              </Link>
            )}
            <NoteList notes={notes.data.notes} empty="No notes on this order yet." />
          </>
        )}
        {canWrite && (
          <NoteForm
            label="Write a note on this order"
            save={(body) => addOrderNote(orderId, body)}
            onSaved={() => {
              void queryClient.invalidateQueries({ queryKey: customerQueries.orderNotes(orderId).queryKey });
              void queryClient.invalidateQueries({ queryKey: customerQueries.all });
            }}
          />
        )}
      </CardContent>
    </Card>
  );
}
