import { describe, expect, it } from 'vitest';
import { cardBrandName, cardEnding } from './cards';

describe('cards in people’s words', () => {
  it('names the gateway’s brands as people write them, and keeps an unknown one as it came', () => {
    expect(['Visa', 'MasterCard', 'AmericanExpress', 'Discover', 'JCB', 'DinersClub', 'Diners Club', 'Maestro'].map(cardBrandName)).toEqual(
      ['Visa', 'Mastercard', 'American Express', 'Discover', 'JCB', 'Diners Club', 'Diners Club', 'Maestro'],
    );
    expect(cardBrandName(null)).toBeNull();
    expect(cardBrandName(' ')).toBeNull();
  });

  it('says which card in staff’s and shoppers’ words, and nothing without its last four digits', () => {
    expect(cardEnding('MasterCard', '0015')).toBe('Mastercard ending 0015');
    expect(cardEnding('AmericanExpress', '0002', { joiner: 'ending in' })).toBe('American Express ending in 0002');
    expect(cardEnding(null, '1111')).toBe('Card ending 1111');
    expect(cardEnding(null, '1111', { joiner: 'ending in', brandless: 'card' })).toBe('card ending in 1111');
    expect(cardEnding('Visa', null)).toBeNull();
  });
});
