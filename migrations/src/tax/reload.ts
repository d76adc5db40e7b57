/**
 * Reloading the rate table without a restart: `kill -HUP <pid>` (or `systemctl reload`, a container's
 * `docker kill --signal=HUP`) makes each process re-read TAX_RATES_FILE. A bad file keeps the rates in
 * force and logs an error, so an edit can be corrected and signalled again. A process whose calculator
 * reads no file (flat) does not listen, and SIGHUP keeps its default meaning there.
 */
import type { Logger } from '../observability/logger';
import type { TaxCalculator } from './calculator';

/** Calls `calculator.reload()` on each SIGHUP; answers the function that stops listening. */
export function reloadTaxRatesOnSignal(calculator: TaxCalculator, log: Logger, signal: NodeJS.Signals = 'SIGHUP'): () => void {
  const reload = calculator.reload?.bind(calculator);
  if (!reload) return () => {};
  const onSignal = () => {
    log.info({ signal, mode: calculator.mode }, 'reloading tax rates');
    void reload();
  };
  process.on(signal, onSignal);
  return () => {
    process.off(signal, onSignal);
  };
}
