export { catalogRoutes } from './routes';
export { catalogCache, invalidateCatalogCache } from './cache';
