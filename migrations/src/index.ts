// @nh/server: the server code api and workers share (database schema and client, outbox, queues, payment gateways, logger, config helpers). Never imported by the SPA.
export * from './db/client';
export * as tables from './db/schema';
export type { Address, LineItem, ProductVariant, Faq, InternalLink, OrderRow, SubscriptionRow, StaffRow, AuditEventRow } from './db/schema';
export * from './env';
export * from './logger';
export * from './loggable-url';
export * from './redis';
// Query modules, one per aggregate; each function takes the db (pool or drizzle) or a transaction first.
export * from './queries/audit';
export * from './queries/exports';
export * from './queries/idempotency';
export * from './queries/orders';
export * from './queries/order-timeline';
export * from './queries/outbox';
export * from './queries/payments';
export * from './queries/payment-in-flight';
export * from './queries/promo';
export * from './queries/reports';
export * from './queries/search';
export * from './queries/refunds';
export * from './queries/subscriptions';
export * from './queries/sync';
export * from './startup-warnings';
export * from './queries/stock';
export * from './queries/staff';
export * from './queries/single-use-tokens';
export * from './queries/shopper-self-service';
