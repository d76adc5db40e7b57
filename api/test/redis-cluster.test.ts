/**
 * The API on a real 3-node Redis Cluster (issue 24; docs/decisions/scale-out.md, "Redis Cluster"):
 * REDIS_CLUSTER_NODES set, the password from REDIS_URL, a hash-tagged QUEUE_PREFIX (`nh:{…}`). The
 * sign-in limits, the card-testing guard, the local sandbox's MULTI and MGET and readiness all work, and
 * every key the API wrote sits in the one slot of the prefix's hash tag. The same sandbox under an
 * untagged prefix fails on the cluster (CROSSSLOT): the rule is what makes it work.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { CHECKOUT_MESSAGES } from '@nh/shared/contracts/checkout';
import { hashTagOf } from '@nh/server/runtime/env';
import { isCluster, type Cluster } from '@nh/server/runtime/redis';
import { createQueue, readQueueDepth } from '@nh/server/runtime/queues';
import { LocalSandboxGateway, SANDBOX_API_LOGIN_ID, SANDBOX_CLIENT_KEY } from '@nh/server/payments/sandbox';
import { startRedisCluster, type TestRedisCluster } from '@nh/server/testing/redis-cluster';
import { startTestApi, type TestApi } from './support/harness';
import { checkoutRequest, makeTestProduct } from './support/paid-orders';

let cluster: TestRedisCluster;
let api: TestApi;
let redis: Cluster;

beforeAll(async () => {
  cluster = await startRedisCluster({ password: 'cluster-secret' });
  api = await startTestApi({
    ...cluster.env,
    QUEUE_PREFIX: `nh:{${inject('queuePrefix')}}`,
    // The limits under QUEUE_PREFIX (`<prefix>:rl`), as in production, not the harness's own prefix.
    RATE_LIMIT_PREFIX: '',
    TRUST_PROXY: 'true',
    LOGIN_ADDRESS_FAILURES_PER_15_MIN: '12',
    PAYMENT_FAILURES_PER_15_MIN: '2',
  });
  if (!isCluster(api.ctx.redis)) throw new Error('the API did not make a cluster client');
  redis = api.ctx.redis;
}, 60_000);
afterAll(async () => {
  await api?.close();
  await cluster?.stop();
});

const TOO_MANY_SIGN_INS = { message: 'Too many failed sign-in attempts. Please try again in 15 minutes.', code: 'RATE_LIMITED' };
const login = (email: string, password: string, address: string) =>
  api.request('/api/login', { body: { email, password }, headers: { 'x-forwarded-for': address } });

describe('the API on a Redis Cluster', () => {
  it('uses a cluster client with the password of REDIS_URL', async () => {
    expect(await redis.ping()).toBe('PONG');
    expect(redis.nodes('master')).toHaveLength(3);
    expect(redis.nodes('master')[0]!.options.password).toBe('cluster-secret');
  });

  it('refuses the 11th failed sign-in on one account from one address', async () => {
    const account = { firstName: 'Ada', lastName: 'Lovelace', email: `cluster.${randomUUID().slice(0, 8)}@example.com`, password: 'correct horse battery' };
    expect((await api.request('/api/register', { body: account })).status).toBe(201);
    for (let i = 0; i < 10; i++) expect((await login(account.email, 'wrong password', '203.0.113.10')).status).toBe(401);
    const refused = await login(account.email, account.password, '203.0.113.10');
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual(TOO_MANY_SIGN_INS);
    // Another address is not held back.
    expect((await login(account.email, account.password, '203.0.113.11')).status).toBe(200);
  });

  it('refuses failed sign-ins from one address past LOGIN_ADDRESS_FAILURES_PER_15_MIN (the rate-limit store on the cluster)', async () => {
    for (let i = 0; i < 12; i++) expect((await login(`nobody.${i}@example.com`, 'wrong password', '203.0.113.20')).status).toBe(401);
    const refused = await login('nobody.else@example.com', 'wrong password', '203.0.113.20');
    expect(refused.status).toBe(429);
    expect((await login('nobody.else@example.com', 'wrong password', '203.0.113.21')).status).toBe(401);
  });

  it('the card-testing guard refuses the third declined checkout from one address, without sending the card', async () => {
    const productId = await makeTestProduct(api, { price: 1250, inventory: 100, prefix: 'Cluster Cleaner' });
    const checkout = async (zip: string) => {
      const body = await checkoutRequest(api, { lines: [{ price: 1250, quantity: 1 }], productIds: [productId], zip });
      const res = await api.request('/api/payments/checkout-nonce', { body, headers: { 'Idempotency-Key': randomUUID(), 'x-forwarded-for': '203.0.113.30' } });
      return { status: res.status, body: await res.json(), token: body.dataValue };
    };
    expect((await checkout('46282')).status).toBe(402);
    expect((await checkout('46282')).status).toBe(402);
    const refused = await checkout('12345');
    expect(refused).toMatchObject({ status: 429, body: { message: CHECKOUT_MESSAGES.tooManyFailures, code: 'RATE_LIMITED' } });
    expect(await redis.exists(`${api.ctx.config.QUEUE_PREFIX}:pay-sandbox:token:${refused.token}`)).toBe(1);
  });

  it("the sandbox gateway's MULTI and MGET work under the tagged prefix: a paid checkout, found, settled and refunded", async () => {
    const productId = await makeTestProduct(api, { price: 2000, inventory: 100, prefix: 'Cluster Paid' });
    const body = await checkoutRequest(api, { lines: [{ price: 2000, quantity: 1 }], productIds: [productId] });
    const res = await api.request('/api/payments/checkout-nonce', { body, headers: { 'Idempotency-Key': randomUUID(), 'x-forwarded-for': '203.0.113.40' } });
    expect(res.status, await res.clone().text()).toBe(200);
    const sandbox = api.payments.sandbox!;
    const charge = sandbox.charges.at(-1)!;
    expect(await sandbox.findCharge(charge.invoiceNumber)).toMatchObject({ outcome: 'approved', transactionId: charge.transactionId });
    expect(await sandbox.settle(charge.transactionId)).toBe(true);
    expect(await sandbox.settlementOf(charge.transactionId)).toMatchObject({ state: 'settled', amount: charge.amount });
    const refund = await sandbox.refund({ transactionId: charge.transactionId, amount: 500, lastFour: charge.lastFour, invoiceNumber: `R-${randomUUID().slice(0, 8)}` });
    expect(refund.outcome).toBe('approved');
  });

  it('the same sandbox under a prefix without a hash tag fails on the cluster (its MULTI spans two slots)', async () => {
    const untagged = new LocalSandboxGateway({ redis, keyPrefix: `plain-${randomUUID().slice(0, 8)}` });
    const token = await untagged.tokenize({
      authData: { clientKey: SANDBOX_CLIENT_KEY, apiLoginID: SANDBOX_API_LOGIN_ID },
      cardData: { cardNumber: '4111111111111111', month: '12', year: '2030', cardCode: '123', zip: '12345' },
    });
    if (!('opaqueData' in token)) throw new Error('tokenize refused the card');
    const billTo = { firstName: 'Ada', lastName: 'Lovelace', address: '1 Main St', city: 'Springfield', state: 'IL', zip: '12345' };
    const result = await untagged.chargeOpaqueData({ amount: 1000, invoiceNumber: `ORD-${randomUUID().slice(0, 8)}`, email: 'ada@example.com', billTo, opaqueData: token.opaqueData });
    expect(result).toMatchObject({ outcome: 'error', errorCode: 'E00001' });
    for (const key of await keysOnCluster('plain-*')) await redis.del(key);
  });

  it("adds a job and reads the queue's depth as the back office does, on the API's own client", async () => {
    const queue = createQueue('erp-sync', redis, api.ctx.config.QUEUE_PREFIX);
    try {
      await queue.add('sync-order', { orderId: randomUUID() }, { jobId: 'cluster-depth' });
      expect(await readQueueDepth(queue, 2000)).toMatchObject({ waiting: 1, active: 0, failed: 0 });
    } finally {
      await queue.close();
    }
  });

  it('/readyz is ready, Redis included', async () => {
    const res = await api.request('/readyz');
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: 'ready', checks: { postgres: 'ok', redis: 'ok' } });
  });

  it("every key the API wrote sits in the slot of QUEUE_PREFIX's hash tag", async () => {
    const keys = await keysOnCluster('*');
    expect(keys.some((key) => key.includes(':rl:'))).toBe(true);
    expect(keys.some((key) => key.includes(':sign-in:'))).toBe(true);
    expect(keys.some((key) => key.includes(':pay-sandbox:txn:'))).toBe(true);
    expect(keys.some((key) => key.includes(':erp-sync:'))).toBe(true);
    const tag = hashTagOf(api.ctx.config.QUEUE_PREFIX)!;
    const slot = await redis.cluster('KEYSLOT', tag);
    const slots = new Set(await Promise.all(keys.map((key) => redis.cluster('KEYSLOT', key))));
    expect([...slots]).toEqual([slot]);
  });
});

/** Every key on every master matching `pattern`. */
async function keysOnCluster(pattern: string): Promise<string[]> {
  const found: string[] = [];
  for (const node of redis.nodes('master')) {
    let cursor = '0';
    do {
      const [next, keys] = await node.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
      cursor = next;
      found.push(...keys);
    } while (cursor !== '0');
  }
  return found;
}
