import { MONEY_BACK_GUARANTEE_DAYS, SHOP } from '@nh/shared/constants';
import { shippingClaim } from '@nh/shared/shipping-claims';
import { HOME_ZONE, type ShippingZone } from '@nh/shared/shipping-rules';
import { Lock, Phone, RotateCcw, Truck } from 'lucide-react';
import { Link } from 'react-router-dom';
import { FacebookIcon, InstagramIcon, XIcon, YoutubeIcon } from '@/components/social-icons';
import { FOOTER_GROUPS, SOCIAL_LINKS } from './site-links';

const FOOTER_LINK = 'inline-flex min-h-6 items-center text-brand-100/85 transition hover:text-white';

const telHref = (phone: string) => `tel:${phone.replace(/[^\d+]/g, '')}`;

/** The site footer; its free-shipping claim is the shipping rule's (the home zone unless told). */
export function SiteFooter({ shippingZone = HOME_ZONE }: { shippingZone?: ShippingZone }) {
  const shipping = shippingClaim(shippingZone);
  // This year, from the clock (a constant went stale every January).
  const year = new Date().getFullYear();
  const socials = [
    { label: 'Facebook', href: SOCIAL_LINKS.facebook, Icon: FacebookIcon },
    { label: 'Instagram', href: SOCIAL_LINKS.instagram, Icon: InstagramIcon },
    { label: 'X', href: SOCIAL_LINKS.x, Icon: XIcon },
    { label: 'YouTube', href: SOCIAL_LINKS.youtube, Icon: YoutubeIcon },
  ];
  return (
    <footer className="relative bg-brand-900 text-brand-100">
      <div className="border-b border-white/10">
        <ul className="mx-auto grid max-w-7xl gap-4 px-4 py-6 text-sm sm:grid-cols-3 sm:px-6 lg:px-8">
          <li className="flex items-center gap-3">
            <Lock className="size-5 text-brand-100" aria-hidden="true" /> Secure checkout
          </li>
          {shipping.freeOver && (
            <li className="flex items-center gap-3">
              <Truck className="size-5 text-brand-100" aria-hidden="true" /> Free shipping on orders {shipping.freeOver}
            </li>
          )}
          <li className="flex items-center gap-3">
            <RotateCcw className="size-5 text-brand-100" aria-hidden="true" /> {MONEY_BACK_GUARANTEE_DAYS}-day returns
          </li>
        </ul>
      </div>
      <div className="mx-auto grid max-w-7xl gap-10 px-4 py-12 sm:px-6 md:grid-cols-2 lg:grid-cols-6 lg:px-8">
        <div className="lg:col-span-2">
          <Link to="/" className="flex items-center gap-2 text-white">
            <img src="/api/public/logo.svg" alt="" className="size-9 object-cover object-left" width={36} height={36} />
            <span className="text-xl font-bold">{SHOP.name}</span>
          </Link>
          <p className="mt-4 max-w-sm text-sm leading-relaxed text-brand-100/80">
            Probiotic, non-toxic cleaners that are safe for your family and kind to the planet.
          </p>
          <ul className="mt-6 flex gap-3" aria-label="Social media">
            {socials.map(({ label, href, Icon }) => (
              <li key={label}>
                <a
                  href={href}
                  target="_blank"
                  rel="noopener noreferrer"
                  aria-label={`${SHOP.name} on ${label}`}
                  className="flex size-10 items-center justify-center rounded-full bg-white/10 text-white transition hover:bg-white/20 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-white"
                >
                  <Icon className="size-5" />
                </a>
              </li>
            ))}
          </ul>
        </div>
        {FOOTER_GROUPS.map((group) => (
          <nav key={group.title} aria-label={`Footer ${group.title}`}>
            <h2 className="text-sm font-semibold uppercase tracking-wider text-white">{group.title}</h2>
            {/* Each link is at least 24 px tall (WCAG 2.5.8 target size; Lighthouse's tap targets). */}
            <ul className="mt-4 space-y-1 text-sm">
              {group.links.map((link) => (
                <li key={link.label}>
                  {link.external ? (
                    <a href={link.to} target="_blank" rel="noopener noreferrer" className={FOOTER_LINK}>
                      {link.label}
                    </a>
                  ) : (
                    <Link to={link.to} className={FOOTER_LINK}>
                      {link.label}
                    </Link>
                  )}
                </li>
              ))}
              {group.title === 'Support' && (
                <li>
                  <a href={telHref(SHOP.supportPhone)} className={`${FOOTER_LINK} gap-2`}>
                    <Phone className="size-4" aria-hidden="true" /> {SHOP.supportPhone}
                  </a>
                </li>
              )}
            </ul>
          </nav>
        ))}
      </div>
      <div className="border-t border-white/10">
        <div className="mx-auto flex max-w-7xl flex-col items-center justify-between gap-2 px-4 py-6 text-xs text-brand-100/70 sm:flex-row sm:px-6 lg:px-8">
          <p>
            © {year} {SHOP.name}. All rights reserved.
          </p>
          {/* Staff entrances: deliberately faint dots. Drawn shapes, not text (a faint text dot fails the
              contrast rule), in a 24 px target each. */}
          <p className="flex gap-1">
            {[
              { to: '/admin', label: 'Admin' },
              { to: '/admin-products', label: 'Product admin' },
            ].map(({ to, label }) => (
              <Link key={to} to={to} aria-label={label} className="group inline-flex size-6 items-center justify-center rounded-full">
                <span aria-hidden="true" className="size-1 rounded-full bg-brand-100/20 group-hover:bg-brand-100/60" />
              </Link>
            ))}
          </p>
        </div>
      </div>
    </footer>
  );
}
