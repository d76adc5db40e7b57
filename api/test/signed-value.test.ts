import { describe, expect, it } from 'vitest';
import { valueSigner } from '../src/lib/signed-value';

describe('valueSigner (signed cookie values)', () => {
  const signer = valueSigner('a session secret of enough length', 'nh test v1');

  it('opens what it signed, and nothing altered', () => {
    const signed = signer.sign('order-1:1700000000000');
    expect(signed).toMatch(/^order-1:1700000000000\.[\w-]{43}$/);
    expect(signer.open(signed)).toBe('order-1:1700000000000');
    const [payload, tag] = [signed.slice(0, signed.lastIndexOf('.')), signed.slice(signed.lastIndexOf('.') + 1)];
    expect(signer.open(`${payload}0.${tag}`)).toBeNull();
    expect(signer.open(`${payload}.${tag.slice(0, -1)}${tag.endsWith('A') ? 'B' : 'A'}`)).toBeNull();
    expect(signer.open(`${payload}.${tag.slice(1)}`)).toBeNull();
    expect(signer.open(payload)).toBeNull();
    expect(signer.open('')).toBeNull();
    expect(signer.open(undefined)).toBeNull();
    expect(signer.open(null)).toBeNull();
  });

  it('refuses a tag of the right length holding a multi-byte character, without throwing', () => {
    const signed = signer.sign('x');
    expect(signer.open(`${signed.slice(0, -1)}\u00e9`)).toBeNull();
  });

  it('signs for one purpose and one secret: a value of another is worthless', () => {
    const signed = signer.sign('x');
    expect(valueSigner('a session secret of enough length', 'nh other v1').open(signed)).toBeNull();
    expect(valueSigner('another secret of enough length', 'nh test v1').open(signed)).toBeNull();
  });

  it('cuts the tag to the length asked for (a prefix of the full tag)', () => {
    const short = valueSigner('a session secret of enough length', 'nh test v1', 22);
    const signed = short.sign('1700000000000');
    expect(signed).toBe(signer.sign('1700000000000').slice(0, '1700000000000.'.length + 22));
    expect(short.open(signed)).toBe('1700000000000');
    expect(short.open(signer.sign('1700000000000'))).toBeNull();
  });
});
