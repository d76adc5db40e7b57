/** Placeholder screen: replaced by its feature's implementation. */
export default function OrderDetailPage() {
  return <h1 className="p-8 text-2xl">Order</h1>;
}
