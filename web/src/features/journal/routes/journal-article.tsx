/** Placeholder screen: replaced by its feature's implementation. */
export default function JournalArticlePage() {
  return <h1 className="p-8 text-2xl">Article</h1>;
}
