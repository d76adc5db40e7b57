/** Placeholder screen: replaced by its feature's implementation. */
export default function CheckoutPage() {
  return <h1 className="p-8 text-2xl">Checkout</h1>;
}
