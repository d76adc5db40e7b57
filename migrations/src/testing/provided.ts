// What the integration globalSetup hands to tests through vitest's provide/inject.
declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
    redisUrl: string;
    queuePrefix: string;
  }
}
export {};
