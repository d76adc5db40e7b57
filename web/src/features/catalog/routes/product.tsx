/** Placeholder screen: replaced by its feature's implementation. */
export default function ProductPage() {
  return <h1 className="p-8 text-2xl">Product</h1>;
}
