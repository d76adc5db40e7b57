// Server-only entry point of @nh/shared: database, integrations, queues. Never imported by the SPA.
export * from './db/client';
export * as tables from './db/schema';
export type { Address, LineItem, ProductVariant, Faq, InternalLink } from './db/schema';
export * from './env';
export * from './logger';
export * from './redis';
export * from './outbox';
export * from './orders/outcome';
export * from './startup-warnings';
