/**
 * The pages of the queue dashboard as the shop serves them. bull-board's own page links IBM Plex from
 * fonts.googleapis.com and styles its loading screen inline; the shop loads nothing from elsewhere
 * (its Content-Security-Policy on /admin/queues allows only 'self'), so the board's page is written
 * here instead: bull-board's stylesheet and scripts as its bundle lists them, then the shop's
 * stylesheet (system fonts, the shop's green, the loading line), all from the shop. The same
 * stylesheet dresses the small page that tells a role without the board that it has no access.
 */
import fs from 'node:fs';
import path from 'node:path';
import { QUEUE_BOARD_MESSAGES } from '@nh/shared/contracts/queue-board';
import { STAFF_ROLE_LABELS, type StaffRole } from '@nh/shared/contracts/staff';
import { escapeHtml } from '@nh/shared/html';

/** The shop's stylesheet for the board, relative to the board's base (`<base href="/admin/queues/">`). */
export const BOARD_STYLESHEET = 'shop/board.css';
const SHOP_LOGO = '/api/public/logo.svg';


const SYSTEM_SANS = "ui-sans-serif, system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif";
const SYSTEM_MONO = 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace';

/** Loaded after bull-board's own stylesheet, so its custom properties win. */
export const BOARD_CSS = `/* Nurture Home: the queue dashboard in the shop's fonts and colours, and the no-access page. */
:root, .dark-mode { --font-sans: ${SYSTEM_SANS}; --font-mono: ${SYSTEM_MONO}; }
:root { --primary: #2f6b4f; --primary-foreground: #ffffff; }
.nh-loading { display: flex; min-height: 100vh; align-items: center; justify-content: center; margin: 0; font-family: ${SYSTEM_SANS}; color: #4d5e53; }
.nh-page { margin: 0; min-height: 100vh; display: flex; align-items: center; justify-content: center; padding: 24px; box-sizing: border-box;
  font-family: ${SYSTEM_SANS}; background: linear-gradient(180deg, #eef7f1, #f6f3ea); color: #1f2d24; }
.nh-card { max-width: 520px; background: #ffffff; border-radius: 14px; padding: 32px; box-shadow: 0 6px 24px rgba(31, 93, 58, 0.08); }
.nh-card img { display: block; width: 48px; height: 48px; margin-bottom: 16px; }
.nh-card h1 { font-size: 1.25rem; margin: 0 0 12px; color: #1d4332; }
.nh-card p { margin: 0 0 12px; line-height: 1.5; color: #4d5e53; }
.nh-button { display: inline-block; margin-top: 8px; padding: 10px 18px; border-radius: 999px; background: #2f6b4f; color: #ffffff; font-weight: 600; text-decoration: none; }
.nh-button:hover, .nh-button:focus { background: #1d4332; }
`;

/** bull-board's UI bundle: its folder and the stylesheets and scripts its own page lists, in order. */
export interface BoardBundle {
  /** The folder with `dist/index.ejs` and `dist/static` (createBullBoard's `uiBasePath`). */
  uiBasePath: string;
  styles: string[];
  scripts: string[];
}

/**
 * Reads the asset list from bull-board's index.ejs (its file names carry content hashes). Fails at
 * start, not in front of staff, should a new bull-board version list its assets differently.
 */
export function readBoardBundle(uiBasePath: string): BoardBundle {
  const template = fs.readFileSync(path.join(uiBasePath, 'dist/index.ejs'), 'utf8');
  const styles = [...template.matchAll(/<link href="(static\/[^"]+\.css)" rel="stylesheet">/g)].map((m) => m[1]!);
  const scripts = [...template.matchAll(/<script defer src="(static\/[^"]+\.js)"><\/script>/g)].map((m) => m[1]!);
  if (styles.length === 0 || scripts.length === 0)
    throw new Error(`bull-board's page lists no stylesheet or script the shop recognises (${uiBasePath})`);
  return { uiBasePath, styles, scripts };
}

/** What bull-board's entry route hands its template: the base path and its UI configuration, already JSON with < and > escaped. */
export interface BoardPageParams {
  basePath: string;
  uiConfig: string;
  title: string;
}

/** The board's page: bull-board's app, every asset from the shop, no inline style or script. */
export function renderBoardPage(bundle: BoardBundle, params: BoardPageParams): string {
  const base = params.basePath.endsWith('/') ? params.basePath : `${params.basePath}/`;
  return `<!DOCTYPE html>
<html lang="en" dir="ltr">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1, shrink-to-fit=no">
<meta name="robots" content="noindex">
<base href="${escapeHtml(base)}">
<title>${escapeHtml(params.title)}</title>
<link rel="icon" type="image/svg+xml" href="${SHOP_LOGO}">
${bundle.styles.map((href) => `<link href="${escapeHtml(href)}" rel="stylesheet">`).join('\n')}
<link href="${BOARD_STYLESHEET}" rel="stylesheet">
</head>
<body class="preload">
<script id="__UI_CONFIG__" type="application/json">${params.uiConfig}</script>
<div id="root"><p class="nh-loading">${escapeHtml(QUEUE_BOARD_MESSAGES.loading)}</p></div>
${bundle.scripts.map((src) => `<script defer src="${escapeHtml(src)}"></script>`).join('')}
</body>
</html>
`;
}

/** The page a signed-in role without the board gets (403), with the way back to the back office. */
export function renderNoAccessPage(role: StaffRole, stylesheet: string): string {
  const title = escapeHtml(QUEUE_BOARD_MESSAGES.noAccessTitle);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${title}</title>
<link rel="icon" type="image/svg+xml" href="${SHOP_LOGO}">
<link href="${escapeHtml(stylesheet)}" rel="stylesheet">
</head>
<body class="nh-page">
<main class="nh-card">
<img src="${SHOP_LOGO}" alt="Nurture Home" width="48" height="48">
<h1>${title}</h1>
<p>${escapeHtml(QUEUE_BOARD_MESSAGES.noAccess(STAFF_ROLE_LABELS[role]))}</p>
<p><a class="nh-button" href="/admin">${escapeHtml(QUEUE_BOARD_MESSAGES.backToBackOffice)}</a></p>
</main>
</body>
</html>
`;
}
