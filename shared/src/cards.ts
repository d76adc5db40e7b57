/**
 * A card as people read it. Payment gateways name brands their own way (Authorize.Net answers
 * "MasterCard", "AmericanExpress", "DinersClub"); shoppers and staff read "Mastercard", "American
 * Express", "Diners Club".
 */
const BRAND_NAMES: Record<string, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  americanexpress: 'American Express',
  amex: 'American Express',
  discover: 'Discover',
  jcb: 'JCB',
  dinersclub: 'Diners Club',
};

/** The brand in people's words; an unknown brand as the gateway wrote it; null when none is known. */
export function cardBrandName(cardType: string | null | undefined): string | null {
  const raw = cardType?.trim();
  if (!raw) return null;
  return BRAND_NAMES[raw.toLowerCase().replace(/[^a-z]/g, '')] ?? raw;
}

/**
 * "Mastercard ending 0015" (staff's words) or, with `joiner: 'ending in'`, "Mastercard ending in 0015"
 * (shoppers'); `brandless` stands for an unknown brand. Null without the last four digits.
 */
export function cardEnding(
  cardType: string | null | undefined,
  lastFour: string | null | undefined,
  { joiner = 'ending', brandless = 'Card' }: { joiner?: 'ending' | 'ending in'; brandless?: string } = {},
): string | null {
  if (!lastFour) return null;
  return `${cardBrandName(cardType) ?? brandless} ${joiner} ${lastFour}`;
}
