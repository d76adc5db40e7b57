import { describe, expect, it } from 'vitest';
import { productionWarnings } from './startup-warnings';

describe('productionWarnings', () => {
  const healthy = { production: true, paymentsConfigured: true, mailToFileOutbox: false };

  it('says nothing for a fully configured production process, or outside production', () => {
    expect(productionWarnings(healthy)).toEqual([]);
    expect(productionWarnings({ production: false, paymentsConfigured: false, mailToFileOutbox: true })).toEqual([]);
  });

  it('warns in production when payments are unconfigured or mail goes to the file outbox', () => {
    expect(productionWarnings({ ...healthy, paymentsConfigured: false })).toEqual([
      expect.stringContaining('card payments are not configured'),
    ]);
    expect(productionWarnings({ ...healthy, mailToFileOutbox: true })).toEqual([expect.stringContaining('SMTP_URL is not set')]);
  });
});
