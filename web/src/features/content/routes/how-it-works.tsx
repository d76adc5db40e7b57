/** Placeholder screen: replaced by its feature's implementation. */
export default function HowItWorksPage() {
  return <h1 className="p-8 text-2xl">How It Works</h1>;
}
