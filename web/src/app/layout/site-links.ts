/** Links of the site frame (header, mobile menu, footer). External brand URLs are page content. */

export interface SiteLink {
  label: string;
  to: string;
  external?: boolean;
  /** Other paths (and their sub-paths) that show the same screen, so the link reads as current there too. */
  aliases?: string[];
}

export const RELATED_BRAND: SiteLink = { label: 'Nurture Baby', to: 'https://www.nurturebaby.com', external: true };

export const MAIN_NAV: SiteLink[] = [
  { label: 'Shop', to: '/shop', aliases: ['/products', '/category'] },
  { label: 'Ingredients', to: '/ingredients' },
  { label: 'How It Works', to: '/how-it-works' },
  { label: 'Journal', to: '/journal' },
  { label: 'Sustainability', to: '/sustainability', aliases: ['/impact'] },
  RELATED_BRAND,
];

export const FOOTER_GROUPS: { title: string; links: SiteLink[] }[] = [
  {
    title: 'Shop',
    links: [
      { label: 'Kitchen', to: '/shop/kitchen' },
      { label: 'Bathroom', to: '/shop/bathroom' },
      { label: 'Laundry', to: '/shop/laundry' },
      { label: 'Multi-Surface', to: '/shop/multi-surface' },
      { label: 'View All', to: '/shop' },
    ],
  },
  {
    title: 'Learn',
    links: [
      { label: 'About Us', to: '/about' },
      { label: 'Ingredients', to: '/ingredients' },
      { label: 'Impact', to: '/impact' },
      { label: 'How It Works', to: '/how-it-works' },
      { label: 'Journal', to: '/journal' },
      { label: 'Support', to: '/support' },
    ],
  },
  {
    title: 'Support',
    links: [
      { label: 'Help Center', to: '/support' },
      { label: 'Order Lookup', to: '/orders/lookup' },
      { label: 'Shipping Info', to: '/legal/shipping' },
      { label: 'Returns', to: '/legal/returns' },
      { label: 'Privacy Policy', to: '/legal/privacy' },
      { label: 'Terms of Service', to: '/legal/terms' },
    ],
  },
  {
    title: 'Our Brands',
    links: [
      RELATED_BRAND,
      { label: 'Nurture Pet', to: 'https://www.nurturepet.com', external: true },
      { label: 'Nurture Garden', to: 'https://www.nurturegarden.com', external: true },
    ],
  },
];

export const SOCIAL_LINKS = {
  facebook: 'https://www.facebook.com/nurturehome',
  instagram: 'https://www.instagram.com/nurturehome',
  x: 'https://x.com/nurturehome',
  youtube: 'https://www.youtube.com/@nurturehome',
} as const;

/** Paths whose page opens with a full-bleed hero: the header starts transparent over it. */
export function hasTransparentHeader(pathname: string): boolean {
  return pathname === '/shop' || pathname === '/products' || pathname.startsWith('/shop/') || pathname.startsWith('/category/');
}

/** Page backdrop per section (storefront §2). */
export function backdropFor(pathname: string): string | null {
  if (pathname === '/journal' || pathname.startsWith('/journal/')) return '/api/public/backdrop-turtle.svg';
  if (pathname === '/sustainability' || pathname === '/impact') return '/api/public/backdrop-beach-trash.svg';
  if (pathname === '/how-it-works') return '/api/public/backdrop-beach.svg';
  return null;
}
