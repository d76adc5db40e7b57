/** Placeholder screen: replaced by its feature's implementation. */
export default function ProductManagerPage() {
  return <h1 className="p-8 text-2xl">Product Manager</h1>;
}
