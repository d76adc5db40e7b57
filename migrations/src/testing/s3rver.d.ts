// The part of s3rver (a local S3-protocol server, a Koa app; no published types) the tests use.
declare module 's3rver' {
  interface S3rverContext {
    method: string;
    path: string;
    headers: Record<string, string | string[] | undefined>;
    query: Record<string, string | string[] | undefined>;
    status: number;
    body: unknown;
    type: string;
  }
  type S3rverMiddleware = (ctx: S3rverContext, next: () => Promise<void>) => Promise<void>;
  interface S3rverOptions {
    address?: string;
    port?: number;
    silent?: boolean;
    directory: string;
    resetOnClose?: boolean;
    configureBuckets?: Array<{ name: string }>;
  }
  export default class S3rver {
    constructor(options: S3rverOptions);
    /** Koa's middleware list: composed when the server starts, so an entry put first runs first. */
    middleware: S3rverMiddleware[];
    run(): Promise<{ address: string; port: number }>;
    close(): Promise<void>;
  }
}
