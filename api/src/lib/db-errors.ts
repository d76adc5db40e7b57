import { postgresErrorOf } from '@nh/server/observability/logger';

/** The SQLSTATE of the PostgreSQL error the admin services turn into a 4xx answer (drizzle wraps pg's in `cause`). */
export const pgErrorCode = (error: unknown): string | undefined => postgresErrorOf(error)?.code;

export const UNIQUE_VIOLATION = '23505';
export const FOREIGN_KEY_VIOLATION = '23503';
