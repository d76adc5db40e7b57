/** The values one change moved, a line each: "Field: before → after" (a screen reader hears "changed to"). */
import { auditChanges } from '../audit-changes';

export function AuditChangeList({ before, after }: { before: unknown; after: unknown }) {
  return (
    <ul className="mt-1 grid gap-0.5">
      {auditChanges(before, after).map((change, index) => (
        <li key={`${change.field}-${index}`}>
          <span className="text-stone-600">{change.field || 'Value'}: </span>
          {change.before !== undefined && <span className="text-red-800">{change.before}</span>}
          {change.before !== undefined && change.after !== undefined && (
            <>
              <span aria-hidden="true"> →</span>
              <span className="sr-only"> changed to</span>{' '}
            </>
          )}
          {change.after !== undefined && <span className="text-green-800">{change.after}</span>}
        </li>
      ))}
    </ul>
  );
}
