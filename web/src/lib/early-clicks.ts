/**
 * Clicks on a server-rendered page before the app has taken it over. Until `hydrateRoot` is called (the
 * screen's code is still loading) React has no listener: a click on a button reaches no handler, and one
 * on a link reaches no Link (a native navigation started then is cancelled by the router's own history
 * entry). Measured: 1 to 2 link clicks in 40 made right after `load` did nothing, and a button clicked
 * while the screen's code loads did nothing every time (web/e2e/held-clicks.test.ts). So from the moment
 * the entry module runs until the app has committed, such clicks are held, then the last one is replayed:
 * - a link: through the router when the app has a screen for the path, as an ordinary navigation
 *   otherwise (a path the server answers, such as "Log In" at `/api/login`, `/admin/queues` or a
 *   picture under `/uploads/`; through the router it would land on the not-found screen);
 * - a button (a `role="button"` element, a submit or button input): clicked again, if it is still on
 *   the page and enabled.
 * The shopper's click is late by the rest of the hydration, never lost. Only plain same-origin link
 * clicks are held (a new tab, a download or another site go as the browser does them), and only plain
 * primary-button clicks.
 */
export interface HeldClickNavigation {
  /** Whether the app's router has a screen for the path (its catch-all not-found screen does not count). */
  hasScreen: (pathname: string) => boolean;
  /** Goes through the router (a path with its query and hash). */
  route: (href: string) => void;
  /** Goes as an ordinary navigation: the server answers it. */
  load: (href: string) => void;
}

export interface HeldClicks {
  /** Stops holding; the last held click, if any, is replayed (see above). */
  release: (navigation: HeldClickNavigation) => void;
}

type HeldClick = { kind: 'link'; pathname: string; href: string } | { kind: 'control'; element: HTMLElement };

const CLICKABLE = 'a[href], button, [role="button"], input[type="submit"], input[type="button"]';

function isDisabled(element: Element): boolean {
  return element.matches(':disabled') || element.getAttribute('aria-disabled') === 'true';
}

export function holdEarlyClicks(doc: Document): HeldClicks {
  let pending: HeldClick | null = null;
  const onClick = (event: MouseEvent) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const target = event.target instanceof Element ? event.target.closest(CLICKABLE) : null;
    if (target instanceof HTMLAnchorElement) {
      if ((target.target && target.target !== '_self') || target.hasAttribute('download') || target.origin !== doc.location.origin) return;
      pending = { kind: 'link', pathname: target.pathname, href: `${target.pathname}${target.search}${target.hash}` };
    } else if (target instanceof HTMLElement && !isDisabled(target)) {
      pending = { kind: 'control', element: target };
    } else {
      return;
    }
    event.preventDefault();
    event.stopPropagation();
  };
  // Capture on the document runs before React's listeners on the root.
  doc.addEventListener('click', onClick, true);
  let released = false;
  return {
    release({ hasScreen, route, load }) {
      if (released) return;
      released = true;
      doc.removeEventListener('click', onClick, true);
      const held = pending;
      pending = null;
      if (held === null) return;
      if (held.kind === 'control') {
        if (held.element.isConnected && !isDisabled(held.element)) held.element.click();
      } else if (hasScreen(held.pathname)) route(held.href);
      else load(held.href);
    },
  };
}
