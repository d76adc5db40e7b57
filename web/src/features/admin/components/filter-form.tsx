/** Pieces every back-office filter form shares: the list of problems found before sending, and its buttons. */
import { Search } from 'lucide-react';
import { Button } from '@/components/ui/button';

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
