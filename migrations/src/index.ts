// @nh/server: the server code api and workers share (database schema and client, outbox, queues, payment gateways, logger, config helpers). Never imported by the SPA.
export * from './db/client';
export * as tables from './db/schema';
export type { Address, LineItem, ProductVariant, Faq, InternalLink } from './db/schema';
export * from './env';
export * from './logger';
export * from './redis';
export * from './outbox';
export * from './orders/outcome';
export * from './startup-warnings';
export * from './stock';
