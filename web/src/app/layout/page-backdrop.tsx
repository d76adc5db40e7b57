import { useLocation } from 'react-router-dom';
import { backdropFor } from './site-links';

/**
 * Fixed page backdrop (storefront §2): journal → turtle, sustainability → beach trash, how it works →
 * beach; every other page a light blue gradient. Kept faint so page content stays readable.
 */
export function PageBackdrop() {
  const image = backdropFor(useLocation().pathname);
  return (
    <div
      aria-hidden="true"
      data-testid="page-backdrop"
      data-backdrop={image ?? 'gradient'}
      className="pointer-events-none fixed inset-0 -z-10"
    >
      <div className="absolute inset-0 bg-gradient-to-b from-sky-50 via-white to-sky-100/60" />
      {image && <div className="absolute inset-0 bg-cover bg-center opacity-25" style={{ backgroundImage: `url(${image})` }} />}
    </div>
  );
}
