import { createRequire } from 'node:module';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { centsToDecimal, priceCart, toPayloadStrings } from '@nh/shared';
import {
  AuthorizeNetGateway,
  cardExpiresOn,
  orderInvoiceNumber,
  parseCreateProfileResponse,
  parsePaymentProfileExpiry,
  type OpaqueChargeRequest,
  type StoreCardRequest,
} from '@nh/server/payments';
import { startAuthnetStub, type AuthnetStub } from './support/authnet-stub';
import { startTestApi, type TestApi } from './support/harness';

const credentials = { apiLoginId: 'stub-login', transactionKey: 'stub-key' };
let stub: AuthnetStub;

beforeAll(async () => {
  stub = await startAuthnetStub(credentials);
});
afterAll(() => stub.close());
beforeEach(() => {
  stub.scenario = 'approve';
});

const gateway = (overrides: Partial<ConstructorParameters<typeof AuthorizeNetGateway>[0]> = {}) =>
  new AuthorizeNetGateway({ ...credentials, environment: 'sandbox', endpoint: stub.url, timeoutMs: 1_000, duplicateWindowSeconds: 600, ...overrides });

const charge = (overrides: Partial<OpaqueChargeRequest> = {}): OpaqueChargeRequest => ({
  amount: 3699,
  invoiceNumber: orderInvoiceNumber(randomUUID()),
  email: 'ada@example.com',
  billTo: { firstName: 'Ada', lastName: 'Lovelace', address: '1 Main St', city: 'Springfield', state: 'IL', zip: '12345' },
  opaqueData: { dataDescriptor: 'COMMON.ACCEPT.INAPP.PAYMENT', dataValue: `token-${randomUUID()}` },
  ...overrides,
});

describe('Authorize.Net gateway (SDK against the local stub)', () => {
  it('approves, reading a response that starts with a byte-order mark', async () => {
    const result = await gateway().chargeOpaqueData(charge());
    expect(result).toMatchObject({
      outcome: 'approved',
      responseCode: '1',
      message: 'This transaction has been approved.',
      cardType: 'Visa',
      lastFour: '1111',
      duplicate: false,
      environment: 'sandbox',
    });
    expect(result.transactionId).toMatch(/^\d+$/);
  });

  it('sends elements in schema order, a ≤ 20 character invoice number and the duplicate window', async () => {
    const invoiceNumber = orderInvoiceNumber('0f8e2a4c-1b3d-4e5f-8a9b-0c1d2e3f4a5b');
    expect(invoiceNumber).toBe('ORD-0F8E2A4C1B3D4E5F');
    await gateway().chargeOpaqueData(charge({ invoiceNumber }));
    const sent = stub.requests.at(-1)!;
    expect(sent.name).toBe('createTransactionRequest');
    expect(sent.topLevelKeys).toEqual(['merchantAuthentication', 'clientId', 'transactionRequest']);
    expect(sent.transactionKeys).toEqual(['transactionType', 'amount', 'payment', 'order', 'customer', 'billTo', 'transactionSettings']);
    expect(sent.invoiceNumber).toBe(invoiceNumber);
    expect(sent.invoiceNumber!.length).toBeLessThanOrEqual(20);
    expect(sent.duplicateWindow).toBe('600');
    expect((sent.body.transactionRequest as { amount: string }).amount).toBe('36.99');
  });

  it('decides on responseCode: declined', async () => {
    stub.scenario = 'decline';
    expect(await gateway().chargeOpaqueData(charge())).toMatchObject({ outcome: 'declined', responseCode: '2', message: 'This transaction has been declined.', errorCode: '2' });
  });

  it('decides on responseCode: error', async () => {
    stub.scenario = 'error';
    expect(await gateway().chargeOpaqueData(charge())).toMatchObject({ outcome: 'error', responseCode: '3', message: 'The credit card number is invalid.', errorCode: '6', duplicate: false });
  });

  it('decides on responseCode: held for review', async () => {
    stub.scenario = 'held';
    expect(await gateway().chargeOpaqueData(charge())).toMatchObject({ outcome: 'held', responseCode: '4' });
  });

  it('reports bad credentials (E00007, no transaction response)', async () => {
    const result = await gateway({ transactionKey: 'wrong' }).chargeOpaqueData(charge());
    expect(result).toMatchObject({ outcome: 'error', responseCode: null, errorCode: 'E00007', message: 'User authentication failed due to invalid authentication values.' });
  });

  it('turns a timeout into an unknown outcome within its own limit (the SDK never calls back)', async () => {
    stub.scenario = 'timeout';
    const started = Date.now();
    const result = await gateway({ timeoutMs: 300 }).chargeOpaqueData(charge());
    expect(result).toMatchObject({ outcome: 'unknown', errorCode: expect.any(String) });
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  it('turns a dropped connection into an unknown outcome', async () => {
    stub.scenario = 'drop';
    expect(await gateway().chargeOpaqueData(charge())).toMatchObject({ outcome: 'unknown' });
  });

  it('treats an HTTP error as an unknown outcome', async () => {
    stub.scenario = 'http-500';
    expect(await gateway().chargeOpaqueData(charge())).toMatchObject({ outcome: 'unknown', errorCode: 'HTTP 500' });
  });

  it('knows an unreachable gateway charged nothing', async () => {
    const result = await gateway({ endpoint: 'http://127.0.0.1:1/xml/v1/request.api' }).chargeOpaqueData(charge());
    expect(result).toMatchObject({ outcome: 'error', errorCode: 'ECONNREFUSED' });
  });

  it('after an unknown outcome, a retry with the same invoice is refused as a duplicate (error 11), never charged twice', async () => {
    stub.scenario = 'charge-then-timeout';
    const request = charge();
    const first = await gateway({ timeoutMs: 300 }).chargeOpaqueData(request);
    expect(first.outcome).toBe('unknown');
    stub.scenario = 'approve';
    const second = await gateway().chargeOpaqueData(request);
    expect(second).toMatchObject({ outcome: 'error', responseCode: '3', errorCode: '11', duplicate: true, transactionId: null });
    expect(stub.charges.filter((c) => c.invoiceNumber === request.invoiceNumber)).toHaveLength(1);
  });

  it('asks for a customer payment profile and reads its ids', async () => {
    const result = await gateway().chargeOpaqueData(charge({ createProfile: true }));
    expect(result.profile).toEqual({ customerProfileId: '900001', paymentProfileId: '800001' });
    const sent = stub.requests.at(-1)!;
    expect(sent.transactionKeys).toEqual(['transactionType', 'amount', 'payment', 'profile', 'order', 'customer', 'billTo', 'transactionSettings']);
  });

  it('charges a stored profile', async () => {
    const result = await gateway().chargeProfile({ ...charge(), profile: { customerProfileId: '900001', paymentProfileId: '800001' } });
    expect(result.outcome).toBe('approved');
    const sent = stub.requests.at(-1)!;
    expect(sent.body.transactionRequest).toMatchObject({ profile: { customerProfileId: '900001', paymentProfile: { paymentProfileId: '800001' } } });
  });

  it('uses one shared no-op logger instead of a new logger per request', () => {
    const require = createRequire(import.meta.url);
    const logger = require('authorizenet/lib/logger.js') as { getLogger: (name: string) => unknown };
    expect(logger.getLogger('a')).toBe(logger.getLogger('b'));
  });
});

describe('findCharge: an invoice number looked up in the Transaction Reporting lists', () => {
  const reportRequests = (since: number) => stub.requests.slice(since).filter((r) => r.name !== 'createTransactionRequest');

  it('finds an approved charge among the unsettled transactions (newest first, pages of 1000)', async () => {
    const request = charge({ amount: 4250 });
    const made = await gateway().chargeOpaqueData(request);
    const since = stub.requests.length;
    const found = await gateway().findCharge(request.invoiceNumber);
    expect(found).toMatchObject({
      outcome: 'approved',
      responseCode: '1',
      message: 'This transaction has been approved.',
      errorCode: null,
      transactionId: made.transactionId,
      cardType: 'Visa',
      lastFour: '1111',
      amount: 4250,
      environment: 'sandbox',
    });
    const [sent, ...more] = reportRequests(since);
    expect(more).toEqual([]);
    expect(sent).toMatchObject({ name: 'getUnsettledTransactionListRequest', topLevelKeys: ['merchantAuthentication', 'clientId', 'sorting', 'paging'] });
    expect(sent!.body).toMatchObject({ sorting: { orderBy: 'submitTimeUTC', orderDescending: true }, paging: { limit: 1000, offset: 1 } });
  });

  it('finds a declined charge, and a charge held for review', async () => {
    stub.scenario = 'decline';
    const declined = charge();
    await gateway().chargeOpaqueData(declined);
    stub.scenario = 'held';
    const held = charge();
    await gateway().chargeOpaqueData(held);
    expect(await gateway().findCharge(declined.invoiceNumber)).toMatchObject({ outcome: 'declined', responseCode: '2', message: 'This transaction has been declined.', transactionId: expect.stringMatching(/^\d+$/) });
    expect(await gateway().findCharge(held.invoiceNumber)).toMatchObject({ outcome: 'held', responseCode: '4', errorCode: null });
  });

  it('answers null when no charge was made with the invoice number, after looking at the settled batches too', async () => {
    stub.scenario = 'error';
    const refused = charge();
    await gateway().chargeOpaqueData(refused); // an error refusal leaves no transaction
    const since = stub.requests.length;
    expect(await gateway().findCharge(refused.invoiceNumber)).toBeNull();
    expect(await gateway().findCharge(orderInvoiceNumber(randomUUID()))).toBeNull();
    expect(reportRequests(since).map((r) => r.name)).toContain('getSettledBatchListRequest');
  });

  it('pages through full pages until it finds the invoice', async () => {
    const request = charge();
    await gateway().chargeOpaqueData(request);
    // 2,500 newer transactions put the charge on the third page.
    const later = new Date(Date.now() + 60_000).toISOString();
    const fillers = Array.from({ length: 2500 }, (_, i) => ({
      transId: String(90_000_000_000 + i),
      invoiceNumber: `ORD-FILLER${String(i).padStart(6, '0')}`,
      amount: '1.00',
      transactionStatus: 'capturedPendingSettlement',
      submitTimeUTC: later,
      batchId: null,
    }));
    stub.transactions.push(...fillers);
    try {
      const since = stub.requests.length;
      expect(await gateway().findCharge(request.invoiceNumber)).toMatchObject({ outcome: 'approved', amount: 3699 });
      const pages = reportRequests(since).map((r) => (r.body.paging as { offset: number }).offset);
      expect(pages).toEqual([1, 2, 3]);
    } finally {
      stub.transactions.splice(stub.transactions.indexOf(fillers[0]!), fillers.length);
    }
  });

  it('finds a charge that was settled since (the daily cut-off passed) in the batches of the last two days', async () => {
    const request = charge();
    const made = await gateway().chargeOpaqueData(request);
    const batchId = stub.settle();
    const since = stub.requests.length;
    expect(await gateway().findCharge(request.invoiceNumber)).toMatchObject({ outcome: 'approved', responseCode: '1', transactionId: made.transactionId });
    const sent = reportRequests(since);
    expect(sent.map((r) => r.name)).toEqual(['getUnsettledTransactionListRequest', 'getSettledBatchListRequest', 'getTransactionListRequest']);
    expect(sent[2]!.body).toMatchObject({ batchId });
  });

  it('ignores a voided charge in favour of the one that took money, and reports a voided one alone as an error', async () => {
    const voided = charge();
    await gateway().chargeOpaqueData(voided);
    stub.transactions.find((t) => t.invoiceNumber === voided.invoiceNumber)!.transactionStatus = 'voided';
    expect(await gateway().findCharge(voided.invoiceNumber)).toMatchObject({ outcome: 'error', responseCode: '3', errorCode: 'voided', message: 'The payment service lists this charge as voided.' });
    const taken = { transId: '91000000001', invoiceNumber: voided.invoiceNumber, amount: '36.99', transactionStatus: 'capturedPendingSettlement', submitTimeUTC: new Date(Date.now() - 1000).toISOString(), batchId: null };
    stub.transactions.push(taken);
    expect(await gateway().findCharge(voided.invoiceNumber)).toMatchObject({ outcome: 'approved', transactionId: taken.transId });
  });

  it('counts a charge whose void failed (couldNotVoid) as money taken', async () => {
    const request = charge();
    const made = await gateway().chargeOpaqueData(request);
    stub.transactions.find((t) => t.invoiceNumber === request.invoiceNumber)!.transactionStatus = 'couldNotVoid';
    expect(await gateway().findCharge(request.invoiceNumber)).toMatchObject({ outcome: 'approved', transactionId: made.transactionId });
  });

  it('throws when the lookup fails (the caller tries again later)', async () => {
    await expect(gateway({ transactionKey: 'wrong' }).findCharge(orderInvoiceNumber(randomUUID()))).rejects.toThrow(/E00007/);
    stub.scenario = 'http-500';
    await expect(gateway().findCharge(orderInvoiceNumber(randomUUID()))).rejects.toThrow(/HTTP 500/);
    stub.scenario = 'timeout';
    await expect(gateway({ timeoutMs: 300 }).findCharge(orderInvoiceNumber(randomUUID()))).rejects.toThrow(/timeout/);
  });
});

describe('storeCard: a new card kept as a customer payment profile, not charged (createCustomerProfileRequest)', () => {
  const store = (overrides: Partial<StoreCardRequest> = {}): StoreCardRequest => ({
    opaqueData: { dataDescriptor: 'COMMON.ACCEPT.INAPP.PAYMENT', dataValue: `token-${randomUUID()}` },
    customerId: `c${randomUUID().replace(/-/g, '').slice(0, 19)}`,
    email: 'ada@example.com',
    billTo: { firstName: 'Ada', lastName: 'Lovelace', address: '1 Main St', city: 'Springfield', state: 'IL', zip: '12345' },
    ...overrides,
  });
  const sentProfile = () => stub.requests.at(-1)!.body as { profile: Record<string, unknown> & { paymentProfiles: Array<Record<string, unknown>> }; validationMode?: string };

  it('stores: the ids, card type and last four come back; elements in schema order; testMode in the sandbox; nothing charged', async () => {
    const chargesBefore = stub.charges.length;
    const request = store();
    const result = await gateway().storeCard(request);
    expect(result).toEqual({
      outcome: 'stored',
      profile: { customerProfileId: expect.stringMatching(/^\d+$/), paymentProfileId: expect.stringMatching(/^\d+$/) },
      message: 'Successful.',
      errorCode: null,
      cardType: 'Visa',
      lastFour: '1111',
    });
    expect(stub.profiles.at(-1)).toMatchObject({ ...result.profile, merchantCustomerId: request.customerId, email: 'ada@example.com', validationMode: 'testMode' });
    expect(stub.charges.length).toBe(chargesBefore);

    const sent = stub.requests.at(-1)!;
    expect(sent.name).toBe('createCustomerProfileRequest');
    expect(sent.topLevelKeys).toEqual(['merchantAuthentication', 'clientId', 'profile', 'validationMode']);
    const { profile } = sentProfile();
    expect(Object.keys(profile)).toEqual(['merchantCustomerId', 'email', 'paymentProfiles']);
    expect(Object.keys(profile.paymentProfiles[0]!)).toEqual(['billTo', 'payment']);
    expect(profile.paymentProfiles[0]).toEqual({
      billTo: { firstName: 'Ada', lastName: 'Lovelace', address: '1 Main St', city: 'Springfield', state: 'IL', zip: '12345', country: 'US' },
      payment: { opaqueData: request.opaqueData },
    });
  });

  it('asks for liveMode validation in production', async () => {
    const result = await gateway({ environment: 'production' }).storeCard(store());
    expect(result.outcome).toBe('stored');
    expect(sentProfile().validationMode).toBe('liveMode');
  });

  it('cuts the merchant customer id to 20 characters; a second profile under the same id is refused (E00039), not stored', async () => {
    const customerId = `${randomUUID().replace(/-/g, '')}`;
    const first = await gateway().storeCard(store({ customerId }));
    expect(first.outcome).toBe('stored');
    expect(stub.profiles.at(-1)!.merchantCustomerId).toBe(customerId.slice(0, 20));
    const again = await gateway().storeCard(store({ customerId }));
    expect(again).toMatchObject({ outcome: 'error', profile: null, errorCode: 'E00039', message: expect.stringContaining('duplicate record') });
  });

  it('declined: a refused validation is E00027 with its text (billing ZIP 46282)', async () => {
    const before = stub.profiles.length;
    const request = store();
    const result = await gateway().storeCard({ ...request, billTo: { ...request.billTo, zip: '46282' } });
    expect(result).toEqual({ outcome: 'declined', profile: null, message: 'This transaction has been declined.', errorCode: 'E00027', cardType: 'Visa', lastFour: '1111' });
    expect(stub.profiles.length).toBe(before);
  });

  it('reports bad credentials (E00007) as an error', async () => {
    const result = await gateway({ transactionKey: 'wrong' }).storeCard(store());
    expect(result).toMatchObject({ outcome: 'error', profile: null, errorCode: 'E00007', message: 'User authentication failed due to invalid authentication values.' });
  });

  it('turns a timeout into an unknown outcome within its own limit, and an unreachable gateway into an error', async () => {
    stub.scenario = 'timeout';
    const started = Date.now();
    const result = await gateway({ timeoutMs: 300 }).storeCard(store());
    expect(result).toMatchObject({ outcome: 'unknown', profile: null, errorCode: 'timeout', message: 'The payment service did not answer, so your card was not saved. You have not been charged. Please try again.' });
    expect(Date.now() - started).toBeLessThan(1_500);
    const unreachable = await gateway({ endpoint: 'http://127.0.0.1:1/xml/v1/request.api' }).storeCard(store());
    expect(unreachable).toMatchObject({ outcome: 'error', errorCode: 'ECONNREFUSED' });
  });

  it('reads a response it does not know as an error', () => {
    expect(parseCreateProfileResponse({ messages: { resultCode: 'Ok', message: [{ code: 'I00001', text: 'Successful.' }] } })).toMatchObject({ outcome: 'error', profile: null });
    expect(parseCreateProfileResponse('nonsense')).toMatchObject({ outcome: 'error', profile: null });
  });
});

describe('storedCardExpiry: a stored card\'s expiry (getCustomerPaymentProfileRequest, unmaskExpirationDate)', () => {
  const store = () =>
    gateway().storeCard({
      opaqueData: { dataDescriptor: 'COMMON.ACCEPT.INAPP.PAYMENT', dataValue: `token-${randomUUID()}` },
      customerId: `x${randomUUID().replace(/-/g, '').slice(0, 19)}`,
      email: 'ada@example.com',
      billTo: { firstName: 'Ada', lastName: 'Lovelace', address: '1 Main St', city: 'Springfield', state: 'IL', zip: '12345' },
    });

  it('reads the month and year of a card stored by createCustomerProfileRequest, asking with the elements in schema order', async () => {
    stub.cardExpiry = '2031-07';
    const stored = await store();
    expect(stored.outcome).toBe('stored');
    expect(await gateway().storedCardExpiry(stored.profile!)).toEqual({ month: 7, year: 2031 });
    const sent = stub.requests.at(-1)!;
    expect(sent.name).toBe('getCustomerPaymentProfileRequest');
    expect(sent.topLevelKeys).toEqual(['merchantAuthentication', 'clientId', 'customerProfileId', 'customerPaymentProfileId', 'unmaskExpirationDate']);
    expect(sent.body).toMatchObject({ customerProfileId: stored.profile!.customerProfileId, customerPaymentProfileId: stored.profile!.paymentProfileId, unmaskExpirationDate: true });
  });

  it('reads the card of the profile a first charge made (createProfile), as subscribing stores it', async () => {
    stub.cardExpiry = '2029-02';
    const charged = await gateway().chargeOpaqueData(charge({ createProfile: true }));
    expect(await gateway().storedCardExpiry(charged.profile!)).toEqual({ month: 2, year: 2029 });
    // The card is good through the last day of its month.
    expect(cardExpiresOn({ month: 2, year: 2029 })).toBe('2029-02-28');
    expect(cardExpiresOn({ month: 2, year: 2028 })).toBe('2028-02-29');
    expect(cardExpiresOn({ month: 12, year: 2030 })).toBe('2030-12-31');
  });

  it('answers null when the provider does not say: no such profile (E00040), a masked expiry, no card', async () => {
    expect(await gateway().storedCardExpiry({ customerProfileId: '1', paymentProfileId: '2' })).toBeNull();
    expect(stub.requests.at(-1)!.name).toBe('getCustomerPaymentProfileRequest');
    const ok = { resultCode: 'Ok', message: [{ code: 'I00001', text: 'Successful.' }] };
    expect(parsePaymentProfileExpiry({ paymentProfile: { payment: { creditCard: { cardNumber: 'XXXX1111', expirationDate: 'XXXX' } } }, messages: ok })).toBeNull();
    expect(parsePaymentProfileExpiry({ paymentProfile: { payment: { bankAccount: {} } }, messages: ok })).toBeNull();
    expect(parsePaymentProfileExpiry({ paymentProfile: { payment: { creditCard: { expirationDate: '2030-13' } } }, messages: ok })).toBeNull();
    expect(parsePaymentProfileExpiry({ paymentProfile: { payment: { creditCard: { expirationDate: '2030-09' } } }, messages: ok })).toEqual({ month: 9, year: 2030 });
  });

  it('throws when the provider could not be asked (refused credentials, an HTTP error, no answer): the caller tries again later', async () => {
    const stored = await store();
    await expect(gateway({ transactionKey: 'wrong' }).storedCardExpiry(stored.profile!)).rejects.toThrow(/E00007/);
    stub.scenario = 'http-500';
    await expect(gateway().storedCardExpiry(stored.profile!)).rejects.toThrow(/HTTP 500/);
    stub.scenario = 'timeout';
    await expect(gateway({ timeoutMs: 300 }).storedCardExpiry(stored.profile!)).rejects.toThrow(/timeout/);
  });
});

describe('checkout through Authorize.Net (API configured with the stub)', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi(stub.apiEnv({ AUTHNET_ENV: 'sandbox', AUTHNET_TIMEOUT_MS: '400' }));
  });
  afterAll(() => api.close());

  async function body() {
    const name = `Authnet Test ${randomUUID().slice(0, 8)}`;
    const { rows } = await api.ctx.db.$client.query<{ id: number }>(
      `insert into products (name, slug, price, inventory, status) values ($1, $2, '20.00', 5, 'active') returning id`,
      [name, name.toLowerCase().replace(/\s+/g, '-')],
    );
    const strings = toPayloadStrings(priceCart([{ price: 2000, quantity: 1 }]));
    const address = { address: '1 Main St', city: 'Springfield', state: 'IL', zip: '12345' };
    return {
      productId: rows[0]!.id,
      payload: {
        amount: strings.total,
        dataDescriptor: 'COMMON.ACCEPT.INAPP.PAYMENT',
        dataValue: `accept-token-${randomUUID()}`,
        firstName: 'Ada',
        lastName: 'Lovelace',
        email: 'ada@example.com',
        ...address,
        orderData: {
          items: [{ productId: rows[0]!.id, quantity: 1, price: centsToDecimal(2000) }],
          ...strings,
          promoCode: null,
          shippingAddress: address,
          billingAddress: address,
        },
      },
    };
  }
  const post = (payload: unknown) => api.request('/api/payments/checkout-nonce', { body: payload, headers: { 'Idempotency-Key': randomUUID() } });

  it('reports Authorize.Net in the status, with the Accept.js sandbox script', async () => {
    expect(await (await api.request('/api/payments/status')).json()).toEqual({
      configured: true,
      environment: 'sandbox',
      publicClientKey: 'stub-public-key',
      apiLoginID: 'stub-login',
      acceptJsUrl: 'https://jstest.authorize.net/v1/Accept.js',
      localSandbox: false,
    });
    expect((await api.request('/api/payments/sandbox/accept.js')).status).toBe(404);
  });

  it('places an order paid through the gateway', async () => {
    const { payload } = await body();
    const res = await post(payload);
    expect(res.status).toBe(200);
    const { orderId } = (await res.json()) as { orderId: string };
    const { rows } = await api.ctx.db.$client.query('select status, card_type, card_last_four from payment_transactions where order_id = $1', [orderId]);
    expect(rows).toEqual([{ status: 'approved', card_type: 'Visa', card_last_four: '1111' }]);
    expect(stub.requests.at(-1)!.invoiceNumber).toBe(orderInvoiceNumber(orderId));
  });

  it('accepts an order held for review (responseCode 4): pending until staff release it, confirmation still queued', async () => {
    stub.scenario = 'held';
    const { payload } = await body();
    const res = await post(payload);
    expect(res.status).toBe(200);
    const { orderId } = (await res.json()) as { orderId: string };
    const { rows } = await api.ctx.db.$client.query(
      `select o.status, p.status as payment, p.response_code, (select count(*)::int from outbox where payload->>'orderId' = o.id::text) as outbox
       from orders o join payment_transactions p on p.order_id = o.id where o.id = $1`,
      [orderId],
    );
    expect(rows).toEqual([{ status: 'pending', payment: 'pending', response_code: '4', outbox: 1 }]);
  });

  it('answers a decline with the provider message and releases the stock', async () => {
    stub.scenario = 'decline';
    const { payload, productId } = await body();
    const res = await post(payload);
    expect(res.status).toBe(402);
    expect(await res.json()).toEqual({ message: 'This transaction has been declined.', code: 'PAYMENT_DECLINED', responseMessage: 'This transaction has been declined.' });
    const { rows } = await api.ctx.db.$client.query('select inventory from products where id = $1', [productId]);
    expect(rows[0]).toEqual({ inventory: 5 });
  });

  it('after a lost answer, retries with the same invoice and takes error 11 as "already charged"', async () => {
    stub.scenario = 'charge-then-timeout';
    const { payload } = await body();
    const pending = post(payload);
    // The first attempt is charged but never answered; the retry must not charge again.
    await new Promise((resolve) => setTimeout(resolve, 150));
    stub.scenario = 'approve';
    const res = await pending;
    expect(res.status).toBe(200);
    const { orderId } = (await res.json()) as { orderId: string };
    expect(stub.charges.filter((c) => c.invoiceNumber === orderInvoiceNumber(orderId))).toHaveLength(1);
    // Recorded as the approval it stands for: response code 1 and its message, not the duplicate's error.
    const { rows } = await api.ctx.db.$client.query(
      'select o.status, p.status as payment, p.response_code, p.response_message from orders o join payment_transactions p on p.order_id = o.id where o.id = $1',
      [orderId],
    );
    expect(rows).toEqual([{ status: 'processing', payment: 'approved', response_code: '1', response_message: 'This transaction has been approved.' }]);
  });

  it('keeps the order for reconciliation when the outcome stays unknown', async () => {
    stub.scenario = 'timeout';
    const { payload } = await body();
    const res = await post(payload);
    expect(res.status).toBe(502);
    const answer = (await res.json()) as { orderId: string; message: string };
    expect(answer.message).toContain('could not confirm your payment');
    const { rows } = await api.ctx.db.$client.query('select o.status, p.status as payment from orders o join payment_transactions p on p.order_id = o.id where o.id = $1', [answer.orderId]);
    expect(rows).toEqual([{ status: 'pending', payment: 'pending' }]);
  });

  it('answers bad merchant credentials as payments unavailable', async () => {
    const broken = await startTestApi(stub.apiEnv({ AUTHNET_TRANSACTION_KEY: 'wrong' }));
    try {
      const { payload } = await body();
      const res = await broken.request('/api/payments/checkout-nonce', { body: payload, headers: { 'Idempotency-Key': randomUUID() } });
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ message: 'Payment processing is currently unavailable. Please contact support or try again later.', code: 'PAYMENTS_UNAVAILABLE' });
    } finally {
      await broken.close();
    }
  });

  it('reports payments as not configured in production without credentials', async () => {
    const production = await startTestApi({
      NODE_ENV: 'production',
      SESSION_SECRET: 'y'.repeat(32),
      SIGN_IN_CODE_PEPPER: 'p'.repeat(32),
      SHOP_SITE_URL: 'https://shop.example.com',
    });
    try {
      expect(await (await production.request('/api/payments/status')).json()).toMatchObject({ configured: false, acceptJsUrl: null });
      const { payload } = await body();
      const res = await production.request('/api/payments/checkout-nonce', { body: payload, headers: { 'Idempotency-Key': randomUUID() } });
      expect(res.status).toBe(503);
      expect((await production.request('/api/payments/sandbox/accept.js')).status).toBe(404);
    } finally {
      await production.close();
    }
  });
});
