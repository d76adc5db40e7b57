import type { QueryClient } from '@tanstack/react-query';
import type { Params } from 'react-router-dom';

/**
 * What a screen asks the API for before it renders, exported by its route module as `prefetch`: the
 * router runs it as the route's loader (docs/decisions/storefront-web.md, "Server-rendered pages").
 * It fills the query cache with the same query options the screen's `useQuery` calls use; a failed
 * call stays in the cache as that query's error, for the screen to show.
 */
export type Prefetch = (queryClient: QueryClient, params: Params) => Promise<unknown>;
