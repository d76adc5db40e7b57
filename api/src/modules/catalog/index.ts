export { catalogRoutes } from './routes';
export { catalogCache, invalidateCatalogCache } from './cache';
export { catalogueLine, priceList, type PricedProduct } from './price-list';
