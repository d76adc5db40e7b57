#!/usr/bin/env node
/**
 * `node scripts/api-module-graph.mjs`: the import graph of the API's modules (api/src/modules/<name>,
 * the admin area's sub-areas as admin/<area>), type-only imports included, and any cycle among modules
 * or among files. Exits 1 when there is a cycle. Part of `npm run lint`: ESLint's import-x/no-cycle
 * catches cycles between files; this one also between modules (folders), which no file cycle shows.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../api/src');

const files = [];
const walk = (dir) => {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full);
    else if (entry.name.endsWith('.ts')) files.push(full);
  }
};
walk(root);

const IMPORT = /(?:^|\n)\s*(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]/g;

function resolve(from, spec) {
  if (!spec.startsWith('.')) return null;
  const base = path.resolve(path.dirname(from), spec);
  for (const candidate of [`${base}.ts`, path.join(base, 'index.ts')]) if (fs.existsSync(candidate)) return candidate;
  throw new Error(`${path.relative(root, from)}: cannot resolve ${spec}`);
}

/**
 * modules/<name>/… → <name>; in the admin area, each sub-area folder and each file beside index.ts is a
 * unit of its own (admin/orders, admin/area, …); anything else → its top folder or file.
 */
function moduleOf(file) {
  const parts = path.relative(root, file).split(path.sep);
  if (parts[0] !== 'modules') return parts.length > 1 ? parts[0] : parts[0].replace(/\.ts$/, '');
  if (parts.length === 2) return 'modules (composition root)';
  if (parts[1] === 'admin' && parts.length > 3) return `admin/${parts[2]}`;
  if (parts[1] === 'admin' && parts[2] !== 'index.ts') return `admin/${parts[2].replace(/\.ts$/, '')}`;
  return parts[1];
}

const fileEdges = new Map(files.map((f) => [f, new Set()]));
for (const file of files) {
  const text = fs.readFileSync(file, 'utf8');
  for (const match of text.matchAll(IMPORT)) {
    const target = resolve(file, match[1]);
    if (target) fileEdges.get(file).add(target);
  }
}

const moduleEdges = new Map();
for (const [from, targets] of fileEdges) {
  const a = moduleOf(from);
  if (!moduleEdges.has(a)) moduleEdges.set(a, new Set());
  for (const to of targets) {
    const b = moduleOf(to);
    if (a !== b) moduleEdges.get(a).add(b);
  }
}

/** Strongly connected components with more than one node (or a self loop): the cycles. */
function cycles(graph) {
  let index = 0;
  const stack = [];
  const info = new Map();
  const found = [];
  const visit = (v) => {
    info.set(v, { index, low: index, on: true });
    index++;
    stack.push(v);
    for (const w of graph.get(v) ?? []) {
      if (!info.has(w)) {
        visit(w);
        info.get(v).low = Math.min(info.get(v).low, info.get(w).low);
      } else if (info.get(w).on) info.get(v).low = Math.min(info.get(v).low, info.get(w).index);
    }
    if (info.get(v).low === info.get(v).index) {
      const scc = [];
      let w;
      do {
        w = stack.pop();
        info.get(w).on = false;
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || graph.get(v)?.has(v)) found.push(scc);
    }
  };
  for (const v of graph.keys()) if (!info.has(v)) visit(v);
  return found;
}

const isModule = (name) => !['lib', 'app', 'main', 'config', 'context'].includes(name);
console.log('API module imports (type-only imports included; lib, app, main, config and context left out of the picture):\n');
for (const name of [...moduleEdges.keys()].filter(isModule).sort()) {
  const deps = [...moduleEdges.get(name)].filter(isModule).sort();
  console.log(`  ${name.padEnd(28)} -> ${deps.length ? deps.join(', ') : '(none)'}`);
}
const moduleCycles = cycles(moduleEdges);
const fileCycles = cycles(fileEdges);
console.log(`\nmodule cycles: ${moduleCycles.length ? moduleCycles.map((c) => c.join(' <-> ')).join('; ') : 'none'}`);
console.log(`file cycles: ${fileCycles.length ? fileCycles.map((c) => c.map((f) => path.relative(root, f)).join(' <-> ')).join('; ') : 'none'}`);
process.exit(moduleCycles.length || fileCycles.length ? 1 : 0);
