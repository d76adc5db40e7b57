import { LIMITS } from '@nh/shared/constants';
import { useState } from 'react';
import { productImageUrl, showFallbackImage } from '@/lib/product-images';
import { cn } from '@/lib/utils';

/** Main picture plus the first 4 images as thumbnails; a thumbnail click sets the main picture. */
export function ProductGallery({ images, name }: { images: readonly string[]; name: string }) {
  const urls = images.length > 0 ? images.map(productImageUrl) : [productImageUrl(null)];
  const [selected, setSelected] = useState(0);
  const main = urls[selected] ?? urls[0]!;
  const thumbs = urls.slice(0, LIMITS.galleryThumbnails);
  return (
    <div>
      <div className="aspect-square overflow-hidden rounded-3xl bg-cream shadow-sm ring-1 ring-stone-200">
        <img
          src={main}
          onError={(e) => showFallbackImage(e)}
          alt={name}
          // The page's largest picture (its LCP): fetched at once and first; sized so nothing moves.
          loading="eager"
          fetchPriority="high"
          width={600}
          height={600}
          className="size-full object-contain p-6"
          data-testid="product-main-image"
        />
      </div>
      {thumbs.length > 1 && (
        <ul className="mt-4 grid grid-cols-4 gap-3" aria-label="Product images">
          {thumbs.map((url, i) => (
            <li key={`${url}-${i}`}>
              <button
                type="button"
                onClick={() => setSelected(i)}
                aria-label={`Show image ${i + 1} of ${name}`}
                aria-pressed={i === selected}
                className={cn(
                  'block aspect-square w-full overflow-hidden rounded-xl bg-cream ring-2 transition focus-visible:outline-none focus-visible:ring-brand-500',
                  i === selected ? 'ring-brand-700' : 'ring-transparent hover:ring-stone-300',
                )}
              >
                <img
                  src={url}
                  onError={(e) => showFallbackImage(e)}
                  alt=""
                  width={120}
                  height={120}
                  className="size-full object-contain p-1.5"
                />
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
