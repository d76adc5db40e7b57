/** Placeholder screen: replaced by its feature's implementation. */
export default function PromoManagerPage() {
  return <h1 className="p-8 text-2xl">Promo Code Manager</h1>;
}
