/** Placeholder screen: replaced by its feature's implementation. */
export default function HomePage() {
  return <h1 className="p-8 text-2xl">Nurture Home</h1>;
}
