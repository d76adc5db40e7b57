export * from './gateway';
export * from './card-brand';
export { AuthorizeNetGateway, AUTHNET_ENDPOINTS, ACCEPT_JS_URLS, parseTransactionResponse, parseCreateProfileResponse, parseRefundResponse, parseTransactionDetails, parsePaymentProfileExpiry, type AuthorizeNetOptions } from './authorizenet';
export * from './sandbox';
export * from './accept-script';
export * from './select';
export * from './instrumented';
