import { formatCents } from '@nh/shared/money';
import { Minus, Plus, ShoppingBag, Trash2 } from 'lucide-react';
import { Link, useNavigate } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import { Sheet, SheetContent, SheetDescription, SheetFooter, SheetHeader, SheetTitle } from '@/components/ui/sheet';
import { productImageUrl, showFallbackImage } from '@/lib/product-images';
import { useCart } from '@/stores/cart-context';

/**
 * Slide-in cart (24rem): lines with quantity controls, total, and the way to checkout. Its own chunk,
 * loaded at the drawer's first opening (cart-drawer.tsx).
 */
export default function CartSheet() {
  const { items, subtotal, isOpen, closeCart, openCart, updateQuantity, removeItem } = useCart();
  const navigate = useNavigate();

  return (
    <Sheet open={isOpen} onOpenChange={(open) => (open ? openCart() : closeCart())}>
      <SheetContent side="right" className="w-full max-w-[24rem] gap-0 sm:max-w-[24rem]" data-testid="cart-drawer">
        <SheetHeader className="border-b border-stone-200 pb-4">
          <SheetTitle className="flex items-center gap-2">
            <ShoppingBag className="size-5" aria-hidden="true" /> Shopping Cart
          </SheetTitle>
          <SheetDescription className="sr-only">Items in your cart</SheetDescription>
        </SheetHeader>

        {items.length === 0 ? (
          <div className="flex flex-1 flex-col items-center justify-center gap-4 p-6 text-center">
            <ShoppingBag className="size-12 text-stone-300" aria-hidden="true" />
            <p className="text-stone-600">Your cart is empty</p>
            <Button asChild>
              <Link to="/shop" onClick={closeCart}>
                Shop Now
              </Link>
            </Button>
          </div>
        ) : (
          <>
            <ul className="flex-1 divide-y divide-stone-100 overflow-y-auto px-6" aria-label="Cart items">
              {items.map((item) => (
                <li key={`${item.productId}:${item.variantSku ?? ''}`} className="flex gap-3 py-4" data-testid="cart-line">
                  <img
                    src={productImageUrl(item.image)}
                    onError={(e) => showFallbackImage(e)}
                    alt=""
                    className="size-20 shrink-0 rounded-lg bg-cream object-contain"
                  />
                  <div className="flex min-w-0 flex-1 flex-col">
                    <Link
                      to={`/product/${item.slug}`}
                      onClick={closeCart}
                      className="line-clamp-2 text-sm font-semibold text-brand-900 hover:underline"
                    >
                      {item.name}
                    </Link>
                    <span className="text-xs text-stone-500">Probiotic Formula</span>
                    <span className="mt-1 text-sm font-medium text-stone-800">{formatCents(item.price)}</span>
                    <div className="mt-2 flex items-center gap-2">
                      <div className="flex items-center rounded-full border border-stone-300">
                        <Button
                          variant="ghost"
                          size="icon-sm"
                          aria-label={`Decrease quantity of ${item.name}`}
                          disabled={item.quantity <= 1}
                          onClick={() => updateQuantity(item.productId, item.quantity - 1, item.variantSku)}
                        >
                          <Minus aria-hidden="true" />
                        </Button>
                        <span
                          className="w-8 text-center text-sm tabular-nums"
                          data-testid="cart-line-quantity"
                          aria-label={`Quantity ${item.quantity}`}
                        >
                          {item.quantity}
                        </span>
                        <Button
                          variant="ghost"
                          size="icon-sm"
                          aria-label={`Increase quantity of ${item.name}`}
                          onClick={() => updateQuantity(item.productId, item.quantity + 1, item.variantSku)}
                        >
                          <Plus aria-hidden="true" />
                        </Button>
                      </div>
                      <Button
                        variant="ghost"
                        size="icon-sm"
                        className="ml-auto text-stone-500 hover:text-red-600"
                        aria-label={`Remove ${item.name}`}
                        onClick={() => removeItem(item.productId, item.variantSku)}
                      >
                        <Trash2 aria-hidden="true" />
                      </Button>
                    </div>
                  </div>
                </li>
              ))}
            </ul>
            <SheetFooter className="border-t border-stone-200 p-6">
              <div className="flex items-center justify-between text-base font-semibold text-brand-900">
                <span>Total</span>
                <span data-testid="cart-total">{formatCents(subtotal)}</span>
              </div>
              <Button
                size="lg"
                className="w-full"
                onClick={() => {
                  closeCart();
                  void navigate('/checkout');
                }}
              >
                Proceed to Checkout
              </Button>
            </SheetFooter>
          </>
        )}
      </SheetContent>
    </Sheet>
  );
}
