/**
 * Loads the `authorizenet` SDK (CommonJS, untyped) once, on first use, with its per-request logger factory replaced
 * by one shared no-op logger: the SDK makes a new winston logger for every request and object and
 * never frees them, so memory grows under load.
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** The SDK's objects are plain classes with setters; we only need to call them by name. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type SdkObject = any;

export interface SdkController {
  setEnvironment(url: string): void;
  execute(callback: () => void): void;
  getResponse(): unknown;
  getError(): unknown;
}

interface AuthorizeNetSdk {
  APIContracts: Record<string, new () => SdkObject> & { TransactionTypeEnum: Record<string, string>; ValidationModeEnum: Record<string, string> };
  APIControllers: Record<string, new (request: unknown, config?: unknown) => SdkController>;
  Constants: { endpoint: { sandbox: string; production: string } };
}

const noop = () => {};
const silentLogger = { debug: noop, info: noop, warn: noop, error: noop, log: noop };

let loaded: { sdk: AuthorizeNetSdk; version: string } | null = null;

/**
 * The SDK, required on first use (a charge, a refund, a gateway made): it and its dependencies (winston,
 * axios …) weigh ~3–5 MB of a process's memory, which a process without card payments (an exports
 * worker, the API without Authorize.Net configured) need not carry (issue 26).
 */
function load(): { sdk: AuthorizeNetSdk; version: string } {
  if (!loaded) {
    const loggerModule = require('authorizenet/lib/logger.js') as { getLogger: (...args: unknown[]) => unknown };
    loggerModule.getLogger = () => silentLogger;
    loaded = {
      sdk: require('authorizenet') as AuthorizeNetSdk,
      version: (require('authorizenet/package.json') as { version: string }).version,
    };
  }
  return loaded;
}

/** The `authorizenet` SDK (loaded by the first call). */
export const authorizeNetSdk = (): AuthorizeNetSdk => load().sdk;

/** The SDK config object (it replaces the SDK's module-wide config when handed to a controller). */
export function sdkConfig(timeoutMs: number) {
  return {
    timeout: timeoutMs,
    clientId: `sdk-node-${load().version}`,
    logger: { enabled: false, location: './', level: 'error' },
    proxy: { setProxy: false, proxyUrl: '' },
  };
}
