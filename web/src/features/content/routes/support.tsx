/** Placeholder screen: replaced by its feature's implementation. */
export default function SupportPage() {
  return <h1 className="p-8 text-2xl">Support</h1>;
}
