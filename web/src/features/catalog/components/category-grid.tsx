import type { Category } from '@nh/shared/contracts/catalog';
import { Link } from 'react-router-dom';
import { publicImage } from '../home-content';

/** 'Shop by Category': links to /category/{slug} with name and optional description. */
export function ShopByCategory({ categories }: { categories: Pick<Category, 'id' | 'slug' | 'name' | 'description' | 'image'>[] }) {
  if (categories.length === 0) return null;
  return (
    <section aria-labelledby="shop-by-category-heading">
      <h2 id="shop-by-category-heading" className="text-2xl font-bold tracking-tight text-brand-900 md:text-3xl">
        Shop by Category
      </h2>
      <ul className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-5">
        {categories.map((c) => (
          <li key={c.slug}>
            <Link
              to={`/category/${c.slug}`}
              className="group flex h-full items-start gap-4 rounded-2xl border border-stone-200 bg-white p-4 shadow-sm transition hover:border-brand-500 hover:shadow-md"
            >
              <img
                src={publicImage(c.image, '/api/public/hero-default.svg')}
                alt=""
                loading="lazy"
                className="size-16 shrink-0 rounded-xl bg-brand-100 object-cover"
              />
              <span>
                <span className="block font-semibold text-brand-900 group-hover:underline">{c.name}</span>
                {c.description && <span className="mt-1 line-clamp-2 text-sm text-stone-600">{c.description}</span>}
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
