// Browser-safe entry point of @nh/shared: constants, money, pricing, contracts.
export * from './constants';
export * from './money';
export * from './cart';
export * from './pricing';
export * from './shipping-rules';
export * from './shipping-claims';
