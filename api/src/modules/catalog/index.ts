export { catalogRoutes } from './routes';
export { catalogCache, invalidateCatalogCache } from './cache';
export { priceList, type PricedProduct } from './price-list';
