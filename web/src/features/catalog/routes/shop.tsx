/** Placeholder screen: replaced by its feature's implementation. */
export default function ShopPage() {
  return <h1 className="p-8 text-2xl">Shop</h1>;
}
