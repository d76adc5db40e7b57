/**
 * Parcel tracking links for the carriers the admin offers (CARRIERS). Each is the carrier's public
 * tracking page with the number in the query string; a carrier we do not know gets no link.
 */
import { CARRIERS } from './constants';

type Carrier = (typeof CARRIERS)[number];

const TRACKING_PAGES: Record<Carrier, (number: string) => string> = {
  USPS: (n) => `https://tools.usps.com/go/TrackConfirmAction?tLabels=${n}`,
  UPS: (n) => `https://www.ups.com/track?tracknum=${n}`,
  FedEx: (n) => `https://www.fedex.com/fedextrack/?trknbr=${n}`,
  DHL: (n) => `https://www.dhl.com/global-en/home/tracking.html?tracking-id=${n}&submit=1`,
};

const isCarrier = (value: string): value is Carrier => (CARRIERS as readonly string[]).includes(value);

/** The public tracking page of a parcel, or null without a known carrier and a tracking number. */
export function trackingUrl(carrier: string | null | undefined, trackingNumber: string | null | undefined): string | null {
  const number = trackingNumber?.trim();
  if (!carrier || !number || !isCarrier(carrier)) return null;
  return TRACKING_PAGES[carrier](encodeURIComponent(number));
}
