/** Links built from the shop's contact facts (SHOP in @nh/shared). */
import { SHOP } from '@nh/shared/constants';

/** "1-800-555-0142" → "tel:+18005550142" (US numbers; anything else keeps its digits and a leading +). */
export function telHref(phone: string): string {
  const digits = phone.replace(/\D/g, '');
  const international = digits.length === 10 ? `1${digits}` : digits;
  return `tel:+${international}`;
}

export function mailtoHref(email: string, subject?: string): string {
  return subject ? `mailto:${email}?subject=${encodeURIComponent(subject)}` : `mailto:${email}`;
}

export function supportContact() {
  return {
    phone: SHOP.supportPhone,
    phoneHref: telHref(SHOP.supportPhone),
    email: SHOP.supportEmail,
    emailHref: mailtoHref(SHOP.supportEmail),
    hours: SHOP.supportHours,
  };
}
