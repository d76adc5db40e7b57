/**
 * The storefront FAQ (support page accordion): questions grouped by shipping, products and
 * returns. Figures come from the shared constants; shipping rates, thresholds, promises and places
 * come from the one shipping rule (shipping-rules.ts, phrased by shipping-claims.ts), as checkout
 * charges them.
 */
import { MONEY_BACK_GUARANTEE_DAYS, SHIPPING_TIMES, SHOP, SUBSCRIBE_AND_SAVE_PERCENT } from '@nh/shared/constants';
import {
  homeZone,
  placesNotShipped,
  placesShipped,
  shippedZones,
  shippingClaim,
  SUBSCRIBE_AND_SAVE_SHIPPING,
  zoneHolding,
} from '@nh/shared/shipping-claims';
import { SHIPPING_ZONES, type ShippingZone } from '@nh/shared/shipping-rules';

export interface FaqItem {
  question: string;
  answer: string;
}

export interface FaqGroup {
  id: 'shipping' | 'products' | 'returns';
  title: string;
  items: FaqItem[];
}

/** "Deliveries to Alaska and Hawaii take 7-10 business days by standard shipping ($14.99, free over $100), or …". */
function deliveriesTo(zone: ShippingZone): string {
  const claim = shippingClaim(zone);
  const standard = `${claim.standardPromise} by standard shipping (${claim.standardRate}${claim.freeOver ? `, free on orders ${claim.freeOver}` : ''})`;
  const express = claim.express ? `, or ${claim.express.promise} by express (${claim.express.rate})` : '';
  return `Deliveries to ${zone.name} take ${standard}${express}.`;
}

/** The FAQ; its shipping answers follow `zones` (the shop's shipping rule unless told). */
export function faqGroups(zones: readonly ShippingZone[] = SHIPPING_ZONES): FaqGroup[] {
  const home = shippingClaim(homeZone(zones));
  const alaskaHawaii = zoneHolding('AK', zones);
  const elsewhere = shippedZones(zones)
    .filter((zone) => zone.id !== home.zone.id && zone.freeOver !== null)
    .map((zone) => `${zone.name}, free ${shippingClaim(zone).freeOver}`);
  const notShipped = placesNotShipped(zones);
  return [
    {
      id: 'shipping',
      title: 'Shipping',
      items: [
        {
          question: 'How long does shipping take?',
          answer: [
            `Orders are processed in ${SHIPPING_TIMES.processing}. Once shipped, our carrier delivers in ${SHIPPING_TIMES.carrier} to most addresses in the contiguous United States.`,
            alaskaHawaii?.ships ? deliveriesTo(alaskaHawaii) : '',
            'Rates and times for every destination are in our Shipping Policy.',
          ]
            .filter(Boolean)
            .join(' '),
        },
        {
          question: 'Do you offer free shipping?',
          answer: [
            home.freeOver ? `Yes. Shipping is free on orders ${home.freeOver} (${home.zone.name}), and every Subscribe & Save delivery ships free.` : `Yes: ${SUBSCRIBE_AND_SAVE_SHIPPING}`,
            elsewhere.length > 0 ? `Elsewhere: ${elsewhere.join('; ')}.` : '',
          ]
            .filter(Boolean)
            .join(' '),
        },
        {
          question: 'How can I track my order?',
          answer: 'As soon as your order ships we email you a tracking number and a link to follow your package. Keep your order confirmation email handy: its order number is what our team needs to help you.',
        },
        {
          question: 'Do you ship outside the United States?',
          answer: [
            `Not yet. We currently ship to ${placesShipped(zones)}.`,
            notShipped ? `We do not ship to ${notShipped} yet.` : '',
            'We hope to bring our cleaners to more countries soon.',
          ]
            .filter(Boolean)
            .join(' '),
        },
      ],
    },
    {
      id: 'products',
      title: 'Products',
      items: [
        {
          question: 'What makes your cleaners "probiotic"?',
          answer: 'Our formulas contain beneficial Bacillus spores. After you clean, they stay on the surface and release enzymes that keep breaking down odor-causing residue for days, instead of leaving the surface bare for less friendly microbes.',
        },
        {
          question: 'Are your products safe around children and pets?',
          answer: 'Our cleaners are made with plant-derived surfactants, no synthetic fragrance, no bleach and no ammonia, and our probiotic strains are non-pathogenic. As with any cleaner, store bottles out of reach and follow the label.',
        },
        {
          question: 'Do probiotic cleaners disinfect?',
          answer: 'No. They clean and control odors, but they are not registered disinfectants. When public-health guidance calls for disinfection, use a registered disinfectant, then return to your probiotic routine.',
        },
        {
          question: 'How does Subscribe & Save work?',
          answer: `Choose Subscribe & Save at checkout to get ${SUBSCRIBE_AND_SAVE_PERCENT}% off and free shipping on a monthly delivery. You can cancel any time from My Subscriptions.`,
        },
      ],
    },
    {
      id: 'returns',
      title: 'Returns',
      items: [
        {
          question: 'What is your return policy?',
          answer: `Every order is covered by our ${MONEY_BACK_GUARANTEE_DAYS}-day money-back guarantee. If you are not happy, contact us within ${MONEY_BACK_GUARANTEE_DAYS} days of delivery, even if the bottle is opened, and we will make it right.`,
        },
        {
          question: 'How long do refunds take?',
          answer: `Refunds are processed within ${SHIPPING_TIMES.refundProcessing} after we inspect your return. Depending on your bank, it can take ${SHIPPING_TIMES.refundAppears} for the refund to appear on your statement.`,
        },
        {
          question: 'What if my order arrives damaged?',
          answer: `We are sorry! Email ${SHOP.supportEmail} with your order number and a photo and we will send a replacement or refund right away. There is no need to send the damaged item back.`,
        },
      ],
    },
  ];
}
