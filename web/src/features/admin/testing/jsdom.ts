/**
 * For the admin component tests: what Radix needs of a browser that jsdom lacks (scrolling, pointer
 * capture, and with `resizeObserver` a ResizeObserver, for a checkbox that measures itself), stubbed
 * before each test and taken away, with the rendered tree, after it. Call once at a test file's top level.
 */
import { cleanup } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';

export function stubBrowserForRadix({ resizeObserver = false }: { resizeObserver?: boolean } = {}) {
  beforeEach(() => {
    vi.stubGlobal('scrollTo', vi.fn());
    if (resizeObserver) {
      vi.stubGlobal(
        'ResizeObserver',
        class {
          observe() {}
          unobserve() {}
          disconnect() {}
        },
      );
    }
    Element.prototype.hasPointerCapture ??= () => false;
    Element.prototype.releasePointerCapture ??= () => undefined;
    Element.prototype.scrollIntoView ??= () => undefined;
  });

  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });
}
