/** Placeholder screen: replaced by its feature's implementation. */
export default function ProductEditPage() {
  return <h1 className="p-8 text-2xl">Edit Product</h1>;
}
