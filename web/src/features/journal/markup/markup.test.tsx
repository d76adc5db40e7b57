import { act, cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { HasScreenContext } from '@/lib/app-paths';
import { afterEach, describe, expect, it } from 'vitest';
import { parseInline, parseMarkup } from './parse';
import { ArticleMarkup } from './render';
import { classifyHref } from './safe-href';

afterEach(cleanup);

function renderMarkup(source: string) {
  return render(
    <MemoryRouter>
      <ArticleMarkup source={source} />
    </MemoryRouter>,
  );
}

describe('parseMarkup', () => {
  it('parses headings, paragraphs joined across lines, and promotes # to level 2', () => {
    expect(parseMarkup('# Top\n## Section\n### Sub\nfirst line\nsecond line\n\nnext')).toEqual([
      { type: 'heading', level: 2, children: [{ type: 'text', value: 'Top' }] },
      { type: 'heading', level: 2, children: [{ type: 'text', value: 'Section' }] },
      { type: 'heading', level: 3, children: [{ type: 'text', value: 'Sub' }] },
      { type: 'paragraph', children: [{ type: 'text', value: 'first line second line' }] },
      { type: 'paragraph', children: [{ type: 'text', value: 'next' }] },
    ]);
  });

  it('parses bullet and numbered lists, keeping the start number and indented continuations', () => {
    const blocks = parseMarkup('- one\n- **two**\n  continued\n\n3. third\n4. fourth');
    expect(blocks).toEqual([
      {
        type: 'list',
        ordered: false,
        start: 1,
        items: [
          [{ type: 'text', value: 'one' }],
          [
            { type: 'strong', children: [{ type: 'text', value: 'two' }] },
            { type: 'text', value: ' continued' },
          ],
        ],
      },
      { type: 'list', ordered: true, start: 3, items: [[{ type: 'text', value: 'third' }], [{ type: 'text', value: 'fourth' }]] },
    ]);
  });

  it('parses pipe tables, padding short rows to the header width and honouring escaped pipes', () => {
    const [table] = parseMarkup('| A | B |\n| --- | :---: |\n| 1 | a \\| b |\n| 2 |');
    expect(table).toEqual({
      type: 'table',
      header: [[{ type: 'text', value: 'A' }], [{ type: 'text', value: 'B' }]],
      rows: [
        [[{ type: 'text', value: '1' }], [{ type: 'text', value: 'a | b' }]],
        [[{ type: 'text', value: '2' }], []],
      ],
    });
  });

  it('treats a pipe line without a separator row as a paragraph', () => {
    expect(parseMarkup('| not a table |')[0]?.type).toBe('paragraph');
  });

  it('parses bold and links with nested bold, leaving unmatched markers as text', () => {
    expect(parseInline('a **b** [c **d**](/x) **open [no link')).toEqual([
      { type: 'text', value: 'a ' },
      { type: 'strong', children: [{ type: 'text', value: 'b' }] },
      { type: 'text', value: ' ' },
      {
        type: 'link',
        href: '/x',
        kind: 'internal',
        children: [
          { type: 'text', value: 'c ' },
          { type: 'strong', children: [{ type: 'text', value: 'd' }] },
        ],
      },
      { type: 'text', value: ' **open [no link' },
    ]);
  });

  it('keeps balanced parentheses inside link targets', () => {
    expect(parseInline('[wiki](https://en.wikipedia.org/wiki/Bacillus_(genus))')).toEqual([
      {
        type: 'link',
        href: 'https://en.wikipedia.org/wiki/Bacillus_(genus)',
        kind: 'external',
        children: [{ type: 'text', value: 'wiki' }],
      },
    ]);
  });
});

describe('classifyHref', () => {
  it.each([
    ['/ingredients', 'internal'],
    ['#faq', 'anchor'],
    ['how-it-works', 'relative'],
    ['https://www.ewg.org/skindeep/', 'external'],
    ['HTTP://example.com', 'external'],
    ['mailto:hello@example.com', 'mailto'],
  ])('allows %s as %s', (href, kind) => {
    expect(classifyHref(href)).toBe(kind);
  });

  it.each([
    'javascript:alert(1)',
    'JavaScript:alert(1)',
    ' javascript:alert(1)',
    'java\tscript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:x',
    '//evil.example.com',
    'tel:123',
    '',
    '/\\evil.example.com',
  ])('refuses %j', (href) => {
    expect(classifyHref(href)).toBeNull();
  });
});

describe('ArticleMarkup', () => {
  it('renders headings with ids, bold, lists and a table', () => {
    const { container } = renderMarkup(
      '## What it is\nSome **bold** text.\n\n### Details\n- a\n- b\n\n1. first\n2. second\n\n| Feature | Value |\n| --- | --- |\n| Fumes | None |',
    );
    expect(screen.getByRole('heading', { level: 2, name: 'What it is' }).id).toBe('what-it-is');
    expect(screen.getByRole('heading', { level: 3, name: 'Details' })).toBeTruthy();
    expect(container.querySelector('strong')?.textContent).toBe('bold');
    expect(container.querySelectorAll('ul > li')).toHaveLength(2);
    expect(container.querySelectorAll('ol > li')).toHaveLength(2);
    expect(screen.getByRole('columnheader', { name: 'Feature' })).toBeTruthy();
    expect(screen.getByRole('cell', { name: 'None' })).toBeTruthy();
  });

  it('gives repeated headings unique ids', () => {
    renderMarkup('## Tips\n## Tips');
    const ids = screen.getAllByRole('heading', { name: 'Tips' }).map((h) => h.id);
    expect(ids).toEqual(['tips', 'tips-2']);
  });

  it('renders internal links as router links and external links with noopener noreferrer', () => {
    renderMarkup('See [ingredients](/ingredients), [EWG](https://www.ewg.org/) and [mail us](mailto:hello@example.com).');
    const internal = screen.getByRole('link', { name: 'ingredients' });
    expect(internal.getAttribute('href')).toBe('/ingredients');
    expect(internal.getAttribute('target')).toBeNull();
    const external = screen.getByRole('link', { name: 'EWG' });
    expect(external.getAttribute('rel')).toBe('noopener noreferrer');
    expect(external.getAttribute('target')).toBe('_blank');
    expect(screen.getByRole('link', { name: 'mail us' }).getAttribute('href')).toBe('mailto:hello@example.com');
  });

  it('shows a script tag as text and never creates script or injected elements', () => {
    const { container } = renderMarkup(
      'Hello <script>window.__pwned = true</script> <img src=x onerror="window.__pwned=true">\n\n## <b>title</b>',
    );
    expect(container.querySelector('script')).toBeNull();
    expect(container.querySelector('img')).toBeNull();
    expect(container.querySelector('b')).toBeNull();
    expect(container.textContent).toContain('<script>window.__pwned = true</script>');
    expect(screen.getByRole('heading', { level: 2 }).textContent).toBe('<b>title</b>');
    expect((window as { __pwned?: boolean }).__pwned).toBeUndefined();
  });

  it('neutralises javascript: links to plain text', () => {
    const { container } = renderMarkup('Click [here](javascript:alert(1)) or [there](JAVASCRIPT:alert(2)) now');
    expect(container.querySelector('a')).toBeNull();
    expect(container.textContent).toBe('Click here or there now');
  });
});

describe('links to the site in an article', () => {
  function renderWith(hasScreen: (pathname: string) => boolean) {
    return render(
      <HasScreenContext.Provider value={hasScreen}>
        <MemoryRouter initialEntries={['/journal/a']}>
          <Routes>
            <Route path="/journal/a" element={<ArticleMarkup source="[Sign in](/api/login?returnTo=%2F) or [shop](/shop#top)" />} />
            <Route path="*" element={<p>app screen</p>} />
          </Routes>
        </MemoryRouter>
      </HasScreenContext.Provider>,
    );
  }

  it("go through the router only when the app has a screen for the path; the server's paths load as pages", () => {
    const asked: string[] = [];
    renderWith((pathname) => (asked.push(pathname), pathname === '/shop'));
    const signIn = screen.getByRole('link', { name: 'Sign in' });
    // The router leaves a reloadDocument link's click to the browser (not prevented, no route change).
    const serverClick = new MouseEvent('click', { bubbles: true, cancelable: true, button: 0 });
    signIn.dispatchEvent(serverClick);
    expect(serverClick.defaultPrevented).toBe(false);
    expect(screen.queryByText('app screen')).toBeNull();
    expect(asked).toContain('/api/login');

    const appClick = new MouseEvent('click', { bubbles: true, cancelable: true, button: 0 });
    act(() => void screen.getByRole('link', { name: 'shop' }).dispatchEvent(appClick));
    expect(appClick.defaultPrevented).toBe(true);
    expect(screen.getByText('app screen')).toBeTruthy();
  });
});
