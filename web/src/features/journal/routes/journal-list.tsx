/** Placeholder screen: replaced by its feature's implementation. */
export default function JournalListPage() {
  return <h1 className="p-8 text-2xl">Journal</h1>;
}
