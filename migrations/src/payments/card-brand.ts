/** Card facts the sandbox needs: the Luhn check and the brand, named as Authorize.Net names it. */

export type CardBrand = 'Visa' | 'MasterCard' | 'AmericanExpress' | 'Discover' | 'JCB' | 'DinersClub';

export function luhnValid(digits: string): boolean {
  if (!/^\d{12,19}$/.test(digits)) return false;
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

export function cardBrand(digits: string): CardBrand | null {
  const two = Number(digits.slice(0, 2));
  const three = Number(digits.slice(0, 3));
  const four = Number(digits.slice(0, 4));
  if (digits.startsWith('4')) return 'Visa';
  if ((two >= 51 && two <= 55) || (four >= 2221 && four <= 2720)) return 'MasterCard';
  if (two === 34 || two === 37) return 'AmericanExpress';
  if (four === 6011 || two === 65 || (three >= 644 && three <= 649)) return 'Discover';
  if (four >= 3528 && four <= 3589) return 'JCB';
  if ((three >= 300 && three <= 305) || two === 36 || two === 38) return 'DinersClub';
  return null;
}

/** Card code length: four digits for American Express, three for the others. */
export const cardCodeLength = (brand: CardBrand | null): number => (brand === 'AmericanExpress' ? 4 : 3);

export const lastFour = (digits: string): string => digits.slice(-4);
