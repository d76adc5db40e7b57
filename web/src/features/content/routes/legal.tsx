/** Placeholder screen: replaced by its feature's implementation. */
export default function LegalPage() {
  return <h1 className="p-8 text-2xl">Legal</h1>;
}
