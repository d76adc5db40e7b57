import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Toaster } from '@/components/ui/toaster';
import { CartProvider, useCart } from '@/stores/cart-context';
import { toCatalogProduct, type RawProduct } from '../product-model';
import { ProductCard } from './product-card';

const base = {
  id: 5,
  name: 'Moppy Floor Cleaner',
  slug: 'moppy',
  images: ['moppy-surface.svg'],
  category: { id: 4, name: 'Multi-Surface', slug: 'multi-surface' },
  status: 'active',
  inventory: 10,
  kitContents: [],
  isStarterKit: false,
  isBestseller: true,
  isRefill: false,
  isFragranceFree: true,
} as unknown as RawProduct;

function CartProbe() {
  const { items } = useCart();
  return <output data-testid="cart">{JSON.stringify(items.map((i) => [i.name, i.variantSku, i.price, i.quantity]))}</output>;
}

function renderCard(raw: Partial<RawProduct>) {
  return render(
    <MemoryRouter>
      <CartProvider>
        <ProductCard product={toCatalogProduct({ ...base, ...raw })} />
        <CartProbe />
        <Toaster />
      </CartProvider>
    </MemoryRouter>,
  );
}

beforeEach(() => localStorage.clear());
afterEach(cleanup);

describe('ProductCard', () => {
  it("shows badges, the product's rating, 'From $min' and a size selector; quick add adds the chosen size", async () => {
    renderCard({
      rating: { average: 4.5, count: 2 },
      price: '13.99',
      variants: [
        { sku: 'M-32', label: '32 oz', price: '13.99' },
        { sku: 'M-128', label: '1 gallon', price: '39.99' },
      ],
    });
    expect(screen.getByRole('link', { name: 'Moppy Floor Cleaner' }).getAttribute('href')).toBe('/product/moppy');
    expect(screen.getByText('Bestseller')).toBeTruthy();
    expect(screen.getByText('Fragrance-Free')).toBeTruthy();
    expect(screen.getByText('4.5 (2)')).toBeTruthy();
    expect(screen.getByRole('img', { name: 'Rated 4.5 out of 5 from 2 reviews' })).toBeTruthy();
    expect(screen.queryByText('4.8 (127)')).toBeNull();
    expect(screen.getByTestId('product-card-price').textContent).toBe('From $13.99');

    await userEvent.selectOptions(screen.getByLabelText('Size of Moppy Floor Cleaner'), 'M-128');
    await userEvent.click(screen.getByRole('button', { name: 'Quick add Moppy Floor Cleaner to cart' }));
    expect(screen.getByTestId('cart').textContent).toBe(JSON.stringify([['Moppy Floor Cleaner - 1 gallon', 'M-128', 3999, 1]]));
    expect(await screen.findByText('Added to cart')).toBeTruthy();
    expect(screen.getByText('Moppy Floor Cleaner added to your cart.')).toBeTruthy();
  });

  it('shows no rating at all for a product without reviews (issue 19: never a made-up one)', () => {
    renderCard({ price: '8.50', variants: [], rating: null });
    expect(screen.queryByTestId('product-card-rating')).toBeNull();
    expect(screen.queryByRole('img', { name: /^Rated/ })).toBeNull();
    expect(screen.queryByText(/\(\d+\)/)).toBeNull();
  });

  it('shows one review as "5.0 (1)"', () => {
    renderCard({ price: '8.50', variants: [], rating: { average: 5, count: 1 } });
    expect(screen.getByTestId('product-card-rating').textContent).toBe('5.0 (1)');
    expect(screen.getByRole('img', { name: 'Rated 5.0 out of 5 from 1 review' })).toBeTruthy();
  });

  it("shows 'Price TBA' and a disabled 'Coming Soon' without a valid price", () => {
    renderCard({ price: '0.00', variants: [] });
    expect(screen.getByTestId('product-card-price').textContent).toBe('Price TBA');
    const button = screen.getByRole<HTMLButtonElement>('button', { name: 'Coming Soon' });
    expect(button.disabled).toBe(true);
    expect(screen.queryByRole('button', { name: /Quick add/ })).toBeNull();
  });

  it('shows a single price with two decimals', () => {
    renderCard({ price: '8.5', variants: [] });
    expect(screen.getByTestId('product-card-price').textContent).toBe('$8.50');
  });
});
