/**
 * A local server speaking Authorize.Net's JSON API (createTransactionRequest), for the adapter's tests.
 * Like the real gateway it answers with a UTF-8 byte-order mark, checks element order (E00003) and
 * credentials (E00007), and honours the duplicate window (error 11). A scenario picks the outcome.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type StubScenario =
  | 'approve'
  | 'decline'
  | 'error'
  | 'held'
  | 'timeout'
  | 'drop'
  /** Charges (remembered for the duplicate window) but never answers: an unknown outcome. */
  | 'charge-then-timeout'
  /** Answers HTTP 500 with no body. */
  | 'http-500';

export interface StubRequest {
  name: string;
  body: Record<string, unknown>;
  topLevelKeys: string[];
  transactionKeys: string[];
  invoiceNumber: string | undefined;
  duplicateWindow: string | undefined;
}

export interface AuthnetStub {
  url: string;
  scenario: StubScenario;
  requests: StubRequest[];
  /** Transactions the stub approved (what a merchant would see settled). */
  charges: Array<{ transId: string; invoiceNumber: string; amount: string }>;
  close: () => Promise<void>;
}

const TOP_ORDER = ['merchantAuthentication', 'clientId', 'refId', 'transactionRequest'];
const TRANSACTION_ORDER = [
  'transactionType', 'amount', 'currencyCode', 'payment', 'profile', 'solution', 'callId', 'terminalNumber', 'authCode', 'refTransId',
  'splitTenderId', 'order', 'lineItems', 'tax', 'duty', 'shipping', 'taxExempt', 'poNumber', 'customer', 'billTo', 'shipTo', 'customerIP',
  'cardholderAuthentication', 'retail', 'employeeId', 'transactionSettings', 'userFields', 'surcharge', 'merchantDescriptor', 'subMerchant',
  'tip', 'processingOptions', 'subsequentAuthInformation', 'otherTax', 'shipFrom', 'authorizationIndicatorType',
];

/** True when `keys` appear in the schema's order (the gateway rejects anything else). */
const inSchemaOrder = (keys: string[], order: string[]) => {
  let last = -1;
  for (const key of keys) {
    const at = order.indexOf(key);
    if (at < last) return false;
    last = at;
  }
  return true;
};

const BOM = '\uFEFF';

export async function startAuthnetStub(credentials: { apiLoginId: string; transactionKey: string }): Promise<AuthnetStub> {
  const sockets = new Set<Socket>();
  const duplicates = new Map<string, number>();
  let nextTransId = 60_000_000_001;

  const stub: AuthnetStub = { url: '', scenario: 'approve', requests: [], charges: [], close: async () => {} };

  const send = (res: ServerResponse, body: unknown) => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
    res.end(BOM + JSON.stringify(body));
  };
  const topError = (code: string, text: string) => ({ messages: { resultCode: 'Error', message: [{ code, text }] } });

  const handle = (req: IncomingMessage, res: ServerResponse, raw: string) => {
    let parsed: Record<string, Record<string, unknown>>;
    try {
      parsed = JSON.parse(raw.replace(/^\uFEFF/, '')) as Record<string, Record<string, unknown>>;
    } catch {
      return send(res, topError('E00002', 'The content-type specified is not supported.'));
    }
    const name = Object.keys(parsed)[0] ?? '';
    const body = parsed[name] ?? {};
    const transaction = (body.transactionRequest ?? {}) as Record<string, unknown>;
    const order = (transaction.order ?? {}) as { invoiceNumber?: string };
    const settings = ((transaction.transactionSettings ?? {}) as { setting?: Array<{ settingName?: string; settingValue?: string }> }).setting ?? [];
    const duplicateWindow = settings.find((s) => s.settingName === 'duplicateWindow')?.settingValue;
    stub.requests.push({
      name,
      body,
      topLevelKeys: Object.keys(body),
      transactionKeys: Object.keys(transaction),
      invoiceNumber: order.invoiceNumber,
      duplicateWindow,
    });

    if (name !== 'createTransactionRequest') return send(res, topError('E00003', `The element '${name}' is not supported by this stub.`));
    if (!inSchemaOrder(Object.keys(body), TOP_ORDER) || !inSchemaOrder(Object.keys(transaction), TRANSACTION_ORDER)) {
      return send(res, topError('E00003', "The element 'createTransactionRequest' in namespace 'AnetApi/xml/v1/schema/AnetApiSchema.xsd' has invalid child element."));
    }
    const auth = (body.merchantAuthentication ?? {}) as { name?: string; transactionKey?: string };
    if (auth.name !== credentials.apiLoginId || auth.transactionKey !== credentials.transactionKey) {
      return send(res, topError('E00007', 'User authentication failed due to invalid authentication values.'));
    }

    if (stub.scenario === 'drop') {
      req.socket.destroy();
      return;
    }
    if (stub.scenario === 'timeout') return; // never answers
    if (stub.scenario === 'http-500') {
      res.writeHead(500);
      res.end();
      return;
    }

    const amount = String(transaction.amount ?? '');
    const fingerprint = `${order.invoiceNumber}:${amount}`;
    const window = Number(duplicateWindow ?? 120) * 1000;
    const seen = duplicates.get(fingerprint);
    const common = { accountNumber: 'XXXX1111', accountType: 'Visa', refTransID: '', transHash: '', testRequest: '0' };
    if (seen !== undefined && Date.now() - seen < window) {
      return send(res, {
        transactionResponse: { responseCode: '3', transId: '0', ...common, errors: [{ errorCode: '11', errorText: 'A duplicate transaction has been submitted.' }] },
        messages: { resultCode: 'Error', message: [{ code: 'E00027', text: 'The transaction was unsuccessful.' }] },
      });
    }

    const transId = String(nextTransId++);
    const approved = stub.scenario === 'approve' || stub.scenario === 'held' || stub.scenario === 'charge-then-timeout';
    if (approved) {
      duplicates.set(fingerprint, Date.now());
      stub.charges.push({ transId, invoiceNumber: order.invoiceNumber ?? '', amount });
    }
    if (stub.scenario === 'charge-then-timeout') return;

    const profile = (transaction.profile ?? {}) as { createProfile?: boolean };
    switch (stub.scenario) {
      case 'approve':
        return send(res, {
          transactionResponse: { responseCode: '1', authCode: 'ABC123', avsResultCode: 'Y', cvvResultCode: 'P', transId, ...common, messages: [{ code: '1', description: 'This transaction has been approved.' }] },
          ...(profile.createProfile ? { profileResponse: { messages: { resultCode: 'Ok', message: [] }, customerProfileId: '900001', customerPaymentProfileIdList: ['800001'] } } : {}),
          messages: { resultCode: 'Ok', message: [{ code: 'I00001', text: 'Successful.' }] },
        });
      case 'held':
        return send(res, {
          transactionResponse: { responseCode: '4', transId, ...common, messages: [{ code: '252', description: 'Your order has been received. Thank you for your business!' }] },
          messages: { resultCode: 'Ok', message: [{ code: 'I00001', text: 'Successful.' }] },
        });
      case 'decline':
        return send(res, {
          transactionResponse: { responseCode: '2', transId, ...common, errors: [{ errorCode: '2', errorText: 'This transaction has been declined.' }] },
          messages: { resultCode: 'Error', message: [{ code: 'E00027', text: 'The transaction was unsuccessful.' }] },
        });
      default:
        return send(res, {
          transactionResponse: { responseCode: '3', transId: '0', ...common, errors: [{ errorCode: '6', errorText: 'The credit card number is invalid.' }] },
          messages: { resultCode: 'Error', message: [{ code: 'E00027', text: 'The transaction was unsuccessful.' }] },
        });
    }
  };

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => handle(req, res, Buffer.concat(chunks).toString('utf8')));
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  stub.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/xml/v1/request.api`;
  stub.close = async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return stub;
}
