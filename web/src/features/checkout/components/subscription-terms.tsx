/**
 * The Subscribe & Save terms beside the ticked box (consent on record, issue 22): the automatic renewal
 * paragraphs of `subscriptionTermsParagraphs`, the words the server records with the plan.
 */
export function SubscriptionTerms({ paragraphs }: { paragraphs: string[] }) {
  return (
    <div className="space-y-1 rounded-md bg-cream p-3 text-sm text-stone-700" data-testid="subscription-terms">
      {paragraphs.map((paragraph) => (
        <p key={paragraph}>{paragraph}</p>
      ))}
    </div>
  );
}
