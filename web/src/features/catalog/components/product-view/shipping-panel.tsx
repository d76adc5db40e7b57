import { homeZone, shippingClaim, shippedZones, SUBSCRIBE_AND_SAVE_SHIPPING, zoneSummary } from '@nh/shared/shipping-claims';
import { SHIPPING_ZONES, type ShippingZone } from '@nh/shared/shipping-rules';
import { MapPin, Package, Repeat, Truck } from 'lucide-react';

/**
 * The Shipping tab, rendered from the shipping rule: the home zone's standard (free over its threshold)
 * and express in the spec's sentences, then the other zones' rates in brief, and Subscribe & Save.
 */
export function ShippingPanel({ zones = SHIPPING_ZONES }: { zones?: readonly ShippingZone[] }) {
  const home = homeZone(zones);
  const others = shippedZones(zones).filter((zone) => zone.id !== home.id);
  const claim = shippingClaim(home);
  return (
    <ul className="space-y-4">
      <li className="flex gap-3">
        <Truck className="mt-0.5 size-5 text-brand-700" aria-hidden="true" />
        <span>
          <strong className="text-brand-900">Standard Shipping</strong>: {claim.standardPromise}
          {claim.freeOver ? `, free on orders ${claim.freeOver} (${claim.standardRate} on orders of ${claim.chargedUpTo})` : ` at ${claim.standardRate}`}
        </span>
      </li>
      {claim.express && (
        <li className="flex gap-3">
          <Package className="mt-0.5 size-5 text-brand-700" aria-hidden="true" />
          <span>
            <strong className="text-brand-900">Express Shipping</strong>: {claim.express.promise} at {claim.express.rate}
          </span>
        </li>
      )}
      {others.length > 0 && (
        <li className="flex gap-3">
          <MapPin className="mt-0.5 size-5 text-brand-700" aria-hidden="true" />
          <div>
            <strong className="text-brand-900">Outside the {home.name}</strong>:
            <ul className="mt-1 list-disc space-y-1 pl-5 text-sm">
              {others.map((zone) => (
                <li key={zone.id}>{zoneSummary(zone)}</li>
              ))}
            </ul>
          </div>
        </li>
      )}
      <li className="flex gap-3">
        <Repeat className="mt-0.5 size-5 text-brand-700" aria-hidden="true" />
        <span>{SUBSCRIBE_AND_SAVE_SHIPPING}</span>
      </li>
    </ul>
  );
}
