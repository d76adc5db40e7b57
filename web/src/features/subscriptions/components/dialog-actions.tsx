import { Loader2 } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { DialogFooter } from '@/components/ui/dialog';

interface Props {
  /** The button that leaves the plan as it is ("Keep Delivery"). */
  keep: string;
  /** The button that makes the change ("Skip Delivery"). */
  label: string;
  pending: boolean;
  /** The change cannot be sent yet (a form not filled in). */
  disabled?: boolean;
  destructive?: boolean;
  onKeep: () => void;
  /** The change button's action; without it, the button submits the form it is in. */
  onConfirm?: () => void;
}

/** A plan dialog's two buttons: keep the plan as it is, or make the change (a spinner while it runs). */
export function DialogActions({ keep, label, pending, disabled = false, destructive = false, onKeep, onConfirm }: Props) {
  return (
    <DialogFooter>
      <Button type="button" variant="outline" onClick={onKeep} disabled={pending}>
        {keep}
      </Button>
      <Button type={onConfirm ? 'button' : 'submit'} variant={destructive ? 'destructive' : 'default'} onClick={onConfirm} disabled={pending || disabled}>
        {pending && <Loader2 className="animate-spin" aria-hidden="true" />}
        {label}
      </Button>
    </DialogFooter>
  );
}
