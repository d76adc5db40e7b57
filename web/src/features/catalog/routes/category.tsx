/** Placeholder screen: replaced by its feature's implementation. */
export default function CategoryPage() {
  return <h1 className="p-8 text-2xl">Category</h1>;
}
