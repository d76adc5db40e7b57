import { describe, expect, it } from 'vitest';
import { CARRIERS } from './constants';
import { trackingUrl } from './shipping';

describe('trackingUrl', () => {
  it('links each carrier the admin offers to its public tracking page', () => {
    expect(trackingUrl('USPS', '9400111899223817')).toBe('https://tools.usps.com/go/TrackConfirmAction?tLabels=9400111899223817');
    expect(trackingUrl('UPS', '1Z999AA10123456784')).toBe('https://www.ups.com/track?tracknum=1Z999AA10123456784');
    expect(trackingUrl('FedEx', '123456789012')).toBe('https://www.fedex.com/fedextrack/?trknbr=123456789012');
    expect(trackingUrl('DHL', '1234567890')).toBe('https://www.dhl.com/global-en/home/tracking.html?tracking-id=1234567890&submit=1');
    for (const carrier of CARRIERS) expect(trackingUrl(carrier, 'X1')).toMatch(/^https:\/\//);
  });

  it('encodes the number and trims it', () => {
    expect(trackingUrl('UPS', ' 1Z 9&9 ')).toBe('https://www.ups.com/track?tracknum=1Z%209%269');
  });

  it('gives no link without a known carrier or a number', () => {
    expect(trackingUrl('none', '123')).toBeNull();
    expect(trackingUrl('Pigeon Post', '123')).toBeNull();
    expect(trackingUrl(null, '123')).toBeNull();
    expect(trackingUrl('UPS', null)).toBeNull();
    expect(trackingUrl('UPS', '  ')).toBeNull();
  });
});
