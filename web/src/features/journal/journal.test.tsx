import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderRoute, stubFetch } from '@/testing/render-route';
import JournalArticlePage from './routes/journal-article';
import JournalListPage from './routes/journal-list';
import { SAMPLE_ARTICLES } from '@/lib/sample-articles';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const post = {
  id: 7,
  title: 'Probiotics 101',
  slug: 'probiotics-101',
  excerpt: 'The basics.',
  image: 'journal-probiotics.svg',
  author: 'Maya Ellison',
  readTime: null,
  category: 'Guides',
  createdAt: '2025-03-04T09:00:00.000Z',
  updatedAt: '2025-03-04T09:00:00.000Z',
  content: '## Why\nBecause **good** bacteria.\n\n<script>alert(1)</script>',
  published: true,
  metaTitle: null,
  metaDescription: null,
  targetKeywords: [],
  faqs: [
    { q: 'First question?', a: 'First answer.' },
    { q: 'Second question?', a: 'Second answer.' },
  ],
  internalLinks: [
    { anchor: 'Ingredient glossary', href: '/ingredients' },
    { anchor: 'Bad link', href: 'javascript:alert(1)' },
  ],
  schemaJsonLd: [],
};

describe('journal list', () => {
  it('shows 6 placeholders while loading', () => {
    stubFetch({ '/api/blog': 'pending' });
    renderRoute('/journal', '/journal', JournalListPage);
    expect(screen.getAllByTestId('article-card-skeleton')).toHaveLength(6);
  });

  it('shows cards with category, date, read time (fallback 5), title, excerpt and Read More', async () => {
    stubFetch({ '/api/blog': { status: 200, body: [post] } });
    renderRoute('/journal', '/journal', JournalListPage);
    const link = await screen.findByRole('link', { name: 'Probiotics 101' });
    expect(link.getAttribute('href')).toBe('/journal/probiotics-101');
    const card = link.closest('article')!;
    expect(within(card).getByText('Guides')).toBeTruthy();
    expect(within(card).getByText('March 4, 2025')).toBeTruthy();
    expect(within(card).getByText('5 min read')).toBeTruthy();
    expect(within(card).getByText('The basics.')).toBeTruthy();
    expect(within(card).getByText('Read More')).toBeTruthy();
    expect(document.title).toContain('The Journal');
  });

  it('shows the three built-in sample articles when the API answers an empty list', async () => {
    stubFetch({ '/api/blog': { status: 200, body: [] } });
    renderRoute('/journal', '/journal', JournalListPage);
    for (const sample of SAMPLE_ARTICLES) expect(await screen.findByRole('link', { name: sample.title })).toBeTruthy();
    expect(SAMPLE_ARTICLES).toHaveLength(3);
  });

  it('shows the empty state when the list cannot be loaded', async () => {
    stubFetch({ '/api/blog': { status: 500, body: { message: 'boom' } } });
    renderRoute('/journal', '/journal', JournalListPage);
    expect(await screen.findByText('No articles available at the moment')).toBeTruthy();
  });
});

describe('journal article', () => {
  it('renders the article with its meta, safe body, related resources and buttons', async () => {
    stubFetch({ '/api/blog/probiotics-101': { status: 200, body: post } });
    const { container } = renderRoute('/journal/:slug', '/journal/probiotics-101', JournalArticlePage);
    expect(await screen.findByRole('heading', { level: 1, name: 'Probiotics 101' })).toBeTruthy();
    expect(screen.getByText('Maya Ellison')).toBeTruthy();
    expect(screen.getByText('5 min read')).toBeTruthy();
    expect(screen.getByText('March 4, 2025')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 2, name: 'Why' })).toBeTruthy();
    expect(container.querySelector('script')).toBeNull();
    expect(container.textContent).toContain('<script>alert(1)</script>');
    const related = screen.getByRole('heading', { name: 'Related Resources' }).closest('section')!;
    expect(within(related).getByRole('link', { name: 'Ingredient glossary' }).getAttribute('href')).toBe('/ingredients');
    expect(within(related).queryByRole('link', { name: 'Bad link' })).toBeNull();
    expect(within(related).getByText('Bad link')).toBeTruthy();
    expect(screen.getAllByRole('link', { name: 'Back to Journal' }).length).toBeGreaterThan(0);
    expect(screen.getByRole('link', { name: 'View All Articles' }).getAttribute('href')).toBe('/journal');
    expect(document.title).toContain('Probiotics 101');
  });

  it('opens one FAQ answer at a time and closes the open one on a second click', async () => {
    stubFetch({ '/api/blog/probiotics-101': { status: 200, body: post } });
    renderRoute('/journal/:slug', '/journal/probiotics-101', JournalArticlePage);
    const user = userEvent.setup();
    const first = await screen.findByRole('button', { name: 'First question?' });
    const second = screen.getByRole('button', { name: 'Second question?' });
    await user.click(first);
    expect(first.getAttribute('aria-expanded')).toBe('true');
    await user.click(second);
    expect(second.getAttribute('aria-expanded')).toBe('true');
    expect(first.getAttribute('aria-expanded')).toBe('false');
    await user.click(second);
    expect(second.getAttribute('aria-expanded')).toBe('false');
  });

  it('shows Article Not Found when the API answers non-OK', async () => {
    stubFetch({ '/api/blog/nope': { status: 404, body: { message: 'Article not found' } } });
    renderRoute('/journal/:slug', '/journal/nope', JournalArticlePage);
    expect(await screen.findByRole('heading', { name: 'Article Not Found' })).toBeTruthy();
    expect(screen.getByText("The article you're looking for doesn't exist or may have been moved.")).toBeTruthy();
  });

  it('falls back to a built-in sample article for its slug', async () => {
    stubFetch({});
    const sample = SAMPLE_ARTICLES[0]!;
    renderRoute('/journal/:slug', `/journal/${sample.slug}`, JournalArticlePage);
    expect(await screen.findByRole('heading', { level: 1, name: sample.title })).toBeTruthy();
  });

  it('shows a loading skeleton first', async () => {
    stubFetch({ '/api/blog/slow': 'pending' });
    renderRoute('/journal/:slug', '/journal/slow', JournalArticlePage);
    await waitFor(() => expect(screen.getByRole('status', { name: 'Loading article' })).toBeTruthy());
  });
});
