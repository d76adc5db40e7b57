export { authRoutes } from './routes';
export { currentUser, requireUser, signedInUser } from './current-user';
