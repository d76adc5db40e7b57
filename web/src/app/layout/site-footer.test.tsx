import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SHOP } from '@nh/shared/constants';
import { SiteFooter } from './site-footer';

const renderFooter = () =>
  render(
    <MemoryRouter>
      <SiteFooter />
    </MemoryRouter>,
  );

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('SiteFooter', () => {
  it('shows the copyright year from the clock', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2031-06-15T12:00:00Z'));
    renderFooter();
    expect(screen.getByText(`© 2031 ${SHOP.name}. All rights reserved.`)).toBeTruthy();
    cleanup();

    vi.setSystemTime(new Date('2032-01-02T12:00:00Z'));
    renderFooter();
    expect(screen.getByText(`© 2032 ${SHOP.name}. All rights reserved.`)).toBeTruthy();
  });

  it('keeps the staff entrances as named links whose dots are drawn, not text', () => {
    renderFooter();
    for (const [name, href] of [
      ['Admin', '/admin'],
      ['Product admin', '/admin-products'],
    ]) {
      const link = screen.getByRole('link', { name });
      expect(link.getAttribute('href')).toBe(href);
      expect(link.textContent).toBe('');
    }
  });
});
