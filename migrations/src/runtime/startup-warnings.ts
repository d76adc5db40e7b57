/**
 * What an operator must hear when a production process starts half-configured: the shop would run,
 * but quietly fail its customers (no card payments, emails written to a folder nobody reads). Each
 * process logs these as warnings at start. A missing SHOP_SITE_URL is no longer a warning: production
 * refuses to start without it (`requireSiteUrlInProduction` in env.ts).
 */
export interface StartupFacts {
  production: boolean;
  /** Card payments have a gateway (Authorize.Net). */
  paymentsConfigured: boolean;
  /** Mail goes to the local file outbox instead of SMTP (only for the processes that send mail). */
  mailToFileOutbox?: boolean;
}

export function productionWarnings(facts: StartupFacts): string[] {
  if (!facts.production) return [];
  const warnings: string[] = [];
  if (!facts.paymentsConfigured) {
    warnings.push(
      'card payments are not configured: checkout, subscriptions and renewals refuse to charge (set AUTHNET_API_LOGIN_ID, AUTHNET_TRANSACTION_KEY, AUTHNET_PUBLIC_CLIENT_KEY)',
    );
  }
  if (facts.mailToFileOutbox) {
    warnings.push('SMTP_URL is not set: emails are written to the local outbox folder (MAIL_OUTBOX_DIR) and no customer receives them');
  }
  return warnings;
}
