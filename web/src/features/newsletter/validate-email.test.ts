import { describe, expect, it } from 'vitest';
import { newsletterEmailProblem } from './validate-email';

describe('home newsletter email check', () => {
  it('asks for an address when empty', () => {
    expect(newsletterEmailProblem('')).toEqual({ title: 'Email required', description: 'Please enter your email address.' });
    expect(newsletterEmailProblem('   ')).toEqual({ title: 'Email required', description: 'Please enter your email address.' });
  });
  it('rejects what is not text@text.text without spaces', () => {
    for (const bad of ['plainaddress', 'a@b', 'a b@c.d', '@b.c', 'a@.c x']) {
      expect(newsletterEmailProblem(bad)).toEqual({ title: 'Invalid email', description: 'Please enter a valid email address.' });
    }
  });
  it('accepts a well-shaped address', () => {
    expect(newsletterEmailProblem('jess@example.com')).toBeNull();
    expect(newsletterEmailProblem('  jess@example.co.uk ')).toBeNull();
  });
});
