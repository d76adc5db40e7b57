import { describe, expect, it } from 'vitest';
import { EMAIL_KINDS, emailKindLabel, ORDER_EMAIL_KINDS } from './emails';

describe('email kinds', () => {
  it('give staff words for each kind, and a kind no longer sent its own name', () => {
    expect(emailKindLabel('order-confirmation')).toBe('Confirmation email');
    expect(emailKindLabel('order-shipped')).toBe('Shipping notice');
    expect(emailKindLabel('retired-kind')).toBe('retired-kind');
    // Words, not the kind's slug: a capital first and a space between words.
    for (const [kind, label] of Object.entries(EMAIL_KINDS)) expect(label, kind).toMatch(/^[A-Z]\S* \S/);
    expect(ORDER_EMAIL_KINDS.every((kind) => kind in EMAIL_KINDS)).toBe(true);
  });
});
