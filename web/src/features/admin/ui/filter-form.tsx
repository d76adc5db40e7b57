/** Pieces every back-office filter form shares: its selects, the list of problems found before sending, and its buttons. */
import { Search } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { cn } from '@/lib/utils';

/** The select's value for "any" (a select item cannot have an empty value). */
const ANY = '__any';

/**
 * A labelled select of a filter: "Any …" (an empty value: no filter) or one of `options`, each shown by
 * its label (staff see words, not enum values).
 */
export function FilterSelect<V extends string>({
  id,
  label,
  value,
  onChange,
  anyLabel,
  options,
  labelOf,
  className,
}: {
  id: string;
  label: string;
  value: V | '';
  onChange: (value: V | '') => void;
  anyLabel: string;
  options: readonly V[];
  labelOf: (option: V) => string;
  className?: string;
}) {
  return (
    <div className={cn('space-y-1.5', className)}>
      <Label htmlFor={id}>{label}</Label>
      <Select value={value || ANY} onValueChange={(v) => onChange(v === ANY ? '' : (v as V))}>
        <SelectTrigger id={id}>
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          <SelectItem value={ANY}>{anyLabel}</SelectItem>
          {options.map((option) => (
            <SelectItem key={option} value={option}>
              {labelOf(option)}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
    </div>
  );
}

/** The form's problems (checked with the contract's messages before anything is sent), announced at once. */
export function ProblemList({ problems }: { problems: readonly string[] }) {
  if (problems.length === 0) return null;
  return (
    <ul className="text-sm text-red-600" role="alert">
      {problems.map((problem) => (
        <li key={problem}>{problem}</li>
      ))}
    </ul>
  );
}

/** Filter (submits the form) and Clear filters. */
export function FilterButtons({ onClear }: { onClear: () => void }) {
  return (
    <div className="flex flex-wrap gap-2">
      <Button type="submit">
        <Search aria-hidden="true" />
        Filter
      </Button>
      <Button type="button" variant="outline" onClick={onClear}>
        Clear filters
      </Button>
    </div>
  );
}
