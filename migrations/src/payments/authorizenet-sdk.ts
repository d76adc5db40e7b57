/**
 * Loads the `authorizenet` SDK (CommonJS, untyped) once, with its per-request logger factory replaced
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
const loggerModule = require('authorizenet/lib/logger.js') as { getLogger: (...args: unknown[]) => unknown };
loggerModule.getLogger = () => silentLogger;

export const sdk = require('authorizenet') as AuthorizeNetSdk;
const sdkVersion = (require('authorizenet/package.json') as { version: string }).version;

/** The SDK config object (it replaces the SDK's module-wide config when handed to a controller). */
export function sdkConfig(timeoutMs: number) {
  return {
    timeout: timeoutMs,
    clientId: `sdk-node-${sdkVersion}`,
    logger: { enabled: false, location: './', level: 'error' },
    proxy: { setProxy: false, proxyUrl: '' },
  };
}
