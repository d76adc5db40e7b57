import { afterEach, describe, expect, it } from 'vitest';
import { holdLinkClicks } from './early-link-clicks';

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
    const went: string[] = [];
    held.release((href) => went.push(href));
    expect(went).toEqual(['/shop/kitchen?sort=price#top']);
    // Released: clicks go as the browser does them, and a second release replays nothing.
    expect(click(link({ href: '/journal' })).defaultPrevented).toBe(false);
    held.release((href) => went.push(href));
    expect(went).toHaveLength(1);
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
    const went: string[] = [];
    held.release((href) => went.push(href));
    expect(went).toEqual([]);
  });

  it('answers nothing when released with no click held', () => {
    const went: string[] = [];
    holdLinkClicks(document).release((href) => went.push(href));
    expect(went).toEqual([]);
  });
});
