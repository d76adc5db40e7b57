#!/usr/bin/env node
/**
 * Home page first-load budget: follows web/dist/index.html (scripts, modulepreloads, stylesheets),
 * then the home route chunk and its static imports from the Vite manifest, and prints the gzipped
 * size of the JavaScript and CSS the home page downloads. Budget: 185 KB of gzipped JavaScript (issue 26; it fails above).
 * Build first: `npm run build:web`.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const BUDGET_KB = 185;
const HOME_ROUTE_SOURCE = 'src/app/routes/home.tsx';
const dist = path.resolve(import.meta.dirname, '..', 'dist');
const manifestPath = path.join(dist, '.vite', 'manifest.json');

if (!fs.existsSync(path.join(dist, 'index.html')) || !fs.existsSync(manifestPath)) {
  console.error('web/dist or its manifest is missing: run `npm run build:web` first (vite.config.ts sets build.manifest).');
  process.exit(2);
}

const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
/** @type {Record<string, { file: string; imports?: string[]; css?: string[]; isEntry?: boolean; src?: string }>} */
const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8'));

const files = new Set();
// 1. What index.html loads directly.
for (const match of html.matchAll(/<(?:script[^>]*\ssrc|link[^>]*\shref)="\/?([^"]+\.(?:js|css))"/g)) files.add(match[1]);

// 2. The home route chunk and everything it (and the entry) imports statically.
const seen = new Set();
function addChunk(key) {
  if (seen.has(key)) return;
  seen.add(key);
  const chunk = manifest[key];
  if (!chunk) throw new Error(`Chunk ${key} not found in the manifest`);
  files.add(chunk.file);
  for (const css of chunk.css ?? []) files.add(css);
  for (const imported of chunk.imports ?? []) addChunk(imported);
}
for (const [key, chunk] of Object.entries(manifest)) if (chunk.isEntry) addChunk(key);
if (!manifest[HOME_ROUTE_SOURCE]) throw new Error(`Home route ${HOME_ROUTE_SOURCE} is not a chunk of the build`);
addChunk(HOME_ROUTE_SOURCE);

const rows = [...files].map((file) => {
  const buf = fs.readFileSync(path.join(dist, file));
  return { file, kind: file.endsWith('.css') ? 'css' : 'js', raw: buf.length, gzip: zlib.gzipSync(buf, { level: 9 }).length };
});
rows.sort((a, b) => b.gzip - a.gzip);
const kb = (n) => (n / 1024).toFixed(1);
console.log('Home page first load (gzipped):');
for (const r of rows) console.log(`  ${kb(r.gzip).padStart(7)} KB  ${r.kind.padEnd(3)}  ${r.file}  (raw ${kb(r.raw)} KB)`);
const js = rows.filter((r) => r.kind === 'js').reduce((s, r) => s + r.gzip, 0);
const css = rows.filter((r) => r.kind === 'css').reduce((s, r) => s + r.gzip, 0);
console.log(`JavaScript: ${kb(js)} KB gzipped in ${rows.filter((r) => r.kind === 'js').length} files`);
console.log(`CSS:        ${kb(css)} KB gzipped`);
const pass = js / 1024 <= BUDGET_KB;
console.log(`${pass ? 'PASS' : 'FAIL'}: home page JavaScript ${kb(js)} KB ${pass ? '<=' : '>'} ${BUDGET_KB} KB budget`);
process.exit(pass ? 0 : 1);
