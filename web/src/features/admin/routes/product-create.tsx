/** Placeholder screen: replaced by its feature's implementation. */
export default function ProductCreatePage() {
  return <h1 className="p-8 text-2xl">Create Product</h1>;
}
