export { useAuth, authUserQueryKey } from './use-auth';
