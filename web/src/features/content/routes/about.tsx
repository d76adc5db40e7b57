/** Placeholder screen: replaced by its feature's implementation. */
export default function AboutPage() {
  return <h1 className="p-8 text-2xl">About</h1>;
}
