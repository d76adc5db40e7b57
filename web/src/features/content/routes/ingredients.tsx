/** Placeholder screen: replaced by its feature's implementation. */
export default function IngredientsPage() {
  return <h1 className="p-8 text-2xl">Ingredients</h1>;
}
