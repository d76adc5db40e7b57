/** Placeholder screen: replaced by its feature's implementation. */
export default function ImpactPage() {
  return <h1 className="p-8 text-2xl">Impact</h1>;
}
