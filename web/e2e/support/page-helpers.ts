/** Helpers shared by the browser tests. */
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/** expect.poll with a timeout that suits a busy two-core machine (the default is 1 s). */
export const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000 });

/** Waits until `text` (exact when a string) is visible somewhere on the page. */
export const visible = (page: Page, text: string | RegExp) =>
  poll(() =>
    page
      .getByText(text, typeof text === 'string' ? { exact: true } : undefined)
      .first()
      .isVisible(),
  ).toBe(true);

/** Waits for a toast's title (and description, when given). */
export const toast = (page: Page, title: string, description?: string) =>
  Promise.all([visible(page, title), description ? visible(page, description) : Promise.resolve()]);

/**
 * Puts `entries` into the page's local storage before the app's first script runs on the next
 * document, once per tab (a later reload sees what the app wrote). Writing them with
 * page.evaluate after a goto races the app: React may mount after the load event and save its
 * own (empty) cart over them.
 */
export async function seedLocalStorage(page: Page, entries: Record<string, string>): Promise<void> {
  await page.addInitScript((values) => {
    const flag = 'e2e-seeded-local-storage';
    if (sessionStorage.getItem(flag)) return;
    for (const [key, value] of Object.entries(values)) localStorage.setItem(key, value);
    sessionStorage.setItem(flag, '1');
  }, entries);
}

const axeSource = (createRequire(import.meta.url)('axe-core') as { source: string }).source;

interface AxeViolation {
  id: string;
  impact: string | null;
  nodes: { target: unknown[] }[];
}

/**
 * Serious or critical axe-core findings on the current page, as "rule: selector" lines. `tags`
 * restricts the run to rule tags (e.g. ['wcag2a', 'wcag2aa']); by default every rule runs.
 */
export async function seriousAxeViolations(page: Page, tags?: string[]): Promise<string[]> {
  // Evaluated through the DevTools protocol: the app's Content-Security-Policy rightly blocks inline scripts.
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async (runTags) => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, options: unknown) => Promise<{ violations: AxeViolation[] }> } }).axe;
    return (await axe.run(document, runTags ? { runOnly: { type: 'tag', values: runTags } } : {})).violations;
  }, tags);
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((node) => `${v.id}: ${JSON.stringify(node.target)}`));
}
