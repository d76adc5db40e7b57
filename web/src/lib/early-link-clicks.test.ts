import { afterEach, describe, expect, it } from 'vitest';
import { holdLinkClicks, type HeldClickNavigation } from './early-link-clicks';

afterEach(() => {
  document.body.innerHTML = '';
});

function link(attributes: Record<string, string>): HTMLAnchorElement {
  const a = document.createElement('a');
  for (const [name, value] of Object.entries(attributes)) a.setAttribute(name, value);
  a.textContent = 'link';
  document.body.append(a);
  return a;
}

/** Where replayed clicks went: `route:` through the router, `load:` as an ordinary navigation. */
function recorder(hasScreen: (pathname: string) => boolean = () => true): HeldClickNavigation & { went: string[] } {
  const went: string[] = [];
  return { went, hasScreen, route: (href) => went.push(`route:${href}`), load: (href) => went.push(`load:${href}`) };
}

const click = (target: Element, init: MouseEventInit = {}) => {
  const event = new MouseEvent('click', { bubbles: true, cancelable: true, button: 0, ...init });
  target.dispatchEvent(event);
  return event;
};

describe('holdLinkClicks', () => {
  it('holds plain same-origin link clicks until released, then replays the last one', () => {
    const held = holdLinkClicks(document);
    const first = click(link({ href: '/shop' }));
    const second = click(link({ href: '/shop/kitchen?sort=price#top' }).appendChild(document.createElement('span')));
    expect([first.defaultPrevented, second.defaultPrevented]).toEqual([true, true]);
    const to = recorder();
    held.release(to);
    expect(to.went).toEqual(['route:/shop/kitchen?sort=price#top']);
    // Released: clicks go as the browser does them, and a second release replays nothing.
    expect(click(link({ href: '/journal' })).defaultPrevented).toBe(false);
    held.release(to);
    expect(to.went).toHaveLength(1);
  });

  it('replays a click on a path the app has no screen for as an ordinary navigation, with its query', () => {
    const held = holdLinkClicks(document);
    click(link({ href: '/api/login?returnTo=%2Fcheckout' }));
    const to = recorder((pathname) => pathname !== '/api/login');
    held.release(to);
    expect(to.went).toEqual(['load:/api/login?returnTo=%2Fcheckout']);
  });

  it('leaves new tabs, downloads, modified clicks and other sites to the browser', () => {
    const held = holdLinkClicks(document);
    const events = [
      click(link({ href: '/shop', target: '_blank' })),
      click(link({ href: '/export.csv', download: '' })),
      click(link({ href: '/shop' }), { ctrlKey: true }),
      click(link({ href: '/shop' }), { button: 1 }),
      click(link({ href: 'https://elsewhere.example/' })),
      click(document.body),
    ];
    expect(events.map((e) => e.defaultPrevented)).toEqual([false, false, false, false, false, false]);
    const to = recorder();
    held.release(to);
    expect(to.went).toEqual([]);
  });

  it('answers nothing when released with no click held', () => {
    const to = recorder();
    holdLinkClicks(document).release(to);
    expect(to.went).toEqual([]);
  });
});
