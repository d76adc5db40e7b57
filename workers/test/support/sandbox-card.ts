/** A card stored with the local payment sandbox as checkout stores one: tokenised, then charged with createProfile. */
import { randomUUID } from 'node:crypto';
import { SANDBOX_API_LOGIN_ID, SANDBOX_CLIENT_KEY, type LocalSandboxGateway, type StoredPaymentProfile } from '@nh/server/payments';

/** The billing address the workers' tests give (a ZIP the sandbox approves). */
export const TEST_ADDRESS = { address: '1 Main St', city: 'Springfield', state: 'IL', zip: '62701' };

/** A real stored payment profile: a test Visa expiring in December, three years ahead. */
export async function storedTestCard(sandbox: LocalSandboxGateway): Promise<StoredPaymentProfile> {
  const token = await sandbox.tokenize({
    authData: { clientKey: SANDBOX_CLIENT_KEY, apiLoginID: SANDBOX_API_LOGIN_ID },
    cardData: { cardNumber: '4111111111111111', month: '12', year: String(new Date().getUTCFullYear() + 3), cardCode: '123', zip: TEST_ADDRESS.zip },
  });
  if (!('opaqueData' in token)) throw new Error('tokenise failed');
  const first = await sandbox.chargeOpaqueData({
    opaqueData: token.opaqueData,
    createProfile: true,
    amount: 1000,
    invoiceNumber: `T-${randomUUID().slice(0, 12)}`,
    email: 'first@example.com',
    billTo: { firstName: 'Sam', lastName: 'Saver', ...TEST_ADDRESS },
  });
  if (first.outcome !== 'approved' || !first.profile) throw new Error(`storing the test card: ${first.outcome}`);
  return first.profile;
}
