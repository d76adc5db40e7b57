// Types for the part of `netsuite-rest` (no bundled types) this project uses: the OAuth 1.0a signer.
declare module 'netsuite-rest' {
  interface NetsuiteRestOptions {
    consumer_key: string;
    consumer_secret_key: string;
    token: string;
    token_secret: string;
    realm: string;
    base_url?: string;
  }
  export default class NetsuiteRest {
    constructor(options: NetsuiteRestOptions);
    getAuthorizationHeader(options: { url: string; method: string }): { Authorization: string };
  }
}
