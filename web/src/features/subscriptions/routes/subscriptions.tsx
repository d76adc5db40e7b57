/** Placeholder screen: replaced by its feature's implementation. */
export default function SubscriptionsPage() {
  return <h1 className="p-8 text-2xl">My Subscriptions</h1>;
}
