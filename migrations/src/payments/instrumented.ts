/**
 * The payment gateway with every call timed into `nh_payment_gateway_duration_seconds` (provider,
 * operation, outcome): a decorator applied where each process selects its gateway (the API's
 * payments/provider.ts, the workers' payments.ts), so no implementation knows about metrics.
 *
 * It is a Proxy of the gateway, not a wrapper class: everything else of the implementation (the local
 * sandbox's test hooks, `instanceof`) stays as it was.
 */
import { paymentGatewayDuration } from '../observability/metrics';
import type { PaymentGateway } from './gateway';

/** Every call of the interface, timed. */
export const TIMED_GATEWAY_OPERATIONS = ['chargeOpaqueData', 'chargeProfile', 'storeCard', 'findCharge', 'settlementOf', 'refund', 'voidCharge', 'storedCardExpiry'] as const satisfies ReadonlyArray<keyof PaymentGateway>;

/** The `outcome` label of a call's result: its own outcome (approved, declined, …) when it has one, else ok. */
const outcomeOf = (result: unknown): string => {
  const outcome = (result as { outcome?: unknown } | null)?.outcome;
  return typeof outcome === 'string' ? outcome : 'ok';
};

export function instrumentGateway<G extends PaymentGateway>(gateway: G): G {
  const timed = new Map<PropertyKey, unknown>(
    TIMED_GATEWAY_OPERATIONS.map((operation) => {
      const call = (gateway[operation] as (...args: unknown[]) => Promise<unknown>).bind(gateway);
      const wrapper = async (...args: unknown[]) => {
        const end = paymentGatewayDuration.startTimer({ provider: gateway.kind, operation });
        try {
          const result = await call(...args);
          end({ outcome: outcomeOf(result) });
          return result;
        } catch (error) {
          end({ outcome: 'exception' });
          throw error;
        }
      };
      return [operation, wrapper];
    }),
  );
  return new Proxy(gateway, {
    get(target, property) {
      if (timed.has(property)) return timed.get(property);
      const value: unknown = Reflect.get(target, property, target);
      // Methods run on the gateway itself (private fields work as before).
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
