export { useAuth, authUserQueryKey } from './use-auth';
export { signOut } from './sign-out';
