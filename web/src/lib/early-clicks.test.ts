import { afterEach, describe, expect, it } from 'vitest';
import { holdEarlyClicks, type HeldClickNavigation } from './early-clicks';

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

describe('holdEarlyClicks on links', () => {
  it('holds plain same-origin link clicks until released, then replays the last one', () => {
    const held = holdEarlyClicks(document);
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
    const held = holdEarlyClicks(document);
    click(link({ href: '/api/login?returnTo=%2Fcheckout' }));
    const to = recorder((pathname) => pathname !== '/api/login');
    held.release(to);
    expect(to.went).toEqual(['load:/api/login?returnTo=%2Fcheckout']);
  });

  it('leaves new tabs, downloads, modified clicks and other sites to the browser', () => {
    const held = holdEarlyClicks(document);
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
    holdEarlyClicks(document).release(to);
    expect(to.went).toEqual([]);
  });
});

describe('holdEarlyClicks on buttons', () => {
  function button(label: string, onClick: () => void): HTMLButtonElement {
    const b = document.createElement('button');
    b.textContent = label;
    b.addEventListener('click', onClick);
    document.body.append(b);
    return b;
  }

  it('holds a button click (none of its handlers run) and clicks the button again on release', () => {
    const clicked: string[] = [];
    const add = button('Add to Cart', () => clicked.push('add'));
    const held = holdEarlyClicks(document);
    const event = click(add.appendChild(document.createElement('span')));
    expect(event.defaultPrevented).toBe(true);
    expect(clicked).toEqual([]);
    held.release(recorder());
    expect(clicked).toEqual(['add']);
    // Released: the next click goes straight through, once.
    click(add);
    expect(clicked).toEqual(['add', 'add']);
  });

  it('replays only the last click, whether a link or a button came last', () => {
    const clicked: string[] = [];
    const wishlist = button('Add to Wishlist', () => clicked.push('wishlist'));
    const held = holdEarlyClicks(document);
    click(wishlist);
    click(link({ href: '/shop' }));
    const to = recorder();
    held.release(to);
    expect([clicked, to.went]).toEqual([[], ['route:/shop']]);

    const again = holdEarlyClicks(document);
    click(link({ href: '/shop' }));
    click(wishlist);
    const to2 = recorder();
    again.release(to2);
    expect([clicked, to2.went]).toEqual([['wishlist'], []]);
  });

  it('leaves disabled buttons alone, and does not click a button that left the page or was disabled meanwhile', () => {
    const clicked: string[] = [];
    // (A browser sends no click to a disabled button; here it only has to pass through untouched.)
    const disabled = button('Out of Stock', () => {});
    disabled.disabled = true;
    const held = holdEarlyClicks(document);
    expect(click(disabled).defaultPrevented).toBe(false);

    const gone = button('Gone', () => clicked.push('gone'));
    click(gone);
    gone.remove();
    held.release(recorder());

    const later = holdEarlyClicks(document);
    const disabledLater = button('Disabled later', () => clicked.push('disabled later'));
    click(disabledLater);
    disabledLater.disabled = true;
    later.release(recorder());
    expect(clicked).toEqual([]);
  });

  it('holds a role="button" element and a submit input, not a plain text click', () => {
    const clicked: string[] = [];
    const tile = document.createElement('div');
    tile.setAttribute('role', 'button');
    tile.addEventListener('click', () => clicked.push('tile'));
    document.body.append(tile);
    const submit = document.createElement('input');
    submit.type = 'submit';
    submit.addEventListener('click', () => clicked.push('submit'));
    document.body.append(submit);
    const held = holdEarlyClicks(document);
    expect(click(tile).defaultPrevented).toBe(true);
    const text = document.createElement('p');
    document.body.append(text);
    expect(click(text).defaultPrevented).toBe(false);
    held.release(recorder());
    expect(clicked).toEqual(['tile']);

    const again = holdEarlyClicks(document);
    expect(click(submit).defaultPrevented).toBe(true);
    again.release(recorder());
    expect(clicked).toEqual(['tile', 'submit']);
  });
});
