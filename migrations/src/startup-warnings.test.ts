import { describe, expect, it } from 'vitest';
import { productionWarnings } from './startup-warnings';

describe('productionWarnings', () => {
  const healthy = { production: true, paymentsConfigured: true, mailToFileOutbox: false, siteUrlSet: true };

  it('says nothing for a fully configured production process, or outside production', () => {
    expect(productionWarnings(healthy)).toEqual([]);
    expect(productionWarnings({ production: false, paymentsConfigured: false, mailToFileOutbox: true, siteUrlSet: false })).toEqual([]);
  });

  it('warns in production when payments are unconfigured, mail goes to the file outbox, or the site URL is missing', () => {
    expect(productionWarnings({ ...healthy, paymentsConfigured: false })).toEqual([expect.stringContaining('card payments are not configured')]);
    expect(productionWarnings({ ...healthy, mailToFileOutbox: true })).toEqual([expect.stringContaining('SMTP_URL is not set')]);
    expect(productionWarnings({ ...healthy, siteUrlSet: false })).toEqual([expect.stringContaining('SHOP_SITE_URL is not set')]);
  });
});
