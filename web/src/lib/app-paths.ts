import { createContext, useContext } from 'react';

/**
 * Whether the app has a screen for a path of the site: the router's own matching, handed down by the
 * app layer (features cannot import the router). A link to any other path of the site (`/api/login`,
 * `/admin/queues`, `/uploads/…`) is the server's and must load as a page, not render the app's
 * not-found screen. Without a provider every path counts as the app's (component tests).
 */
export const HasScreenContext = createContext<(pathname: string) => boolean>(() => true);

export const useHasScreen = () => useContext(HasScreenContext);

/** The path of a site-relative href (`/a/b?c#d` → `/a/b`). */
export const pathOf = (href: string): string => new URL(href, 'http://site.invalid').pathname;
