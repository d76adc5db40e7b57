#!/usr/bin/env node
/**
 * `node scripts/folder-cycles.mjs`: the folder import graph of every package's src (shared, migrations,
 * api, workers, web) and its cycles; exits 1 when there is one. Part of `npm run lint`: ESLint's
 * import-x/no-cycle sees cycles between files, this one between folders (a/x.ts → b/y.ts → a/z.ts).
 *
 * The rule, at every folder: its own files (`.`) and each of its subfolders, with all it holds, are the
 * units, and imports between them go one way. So a folder's files and its subfolders do not import each
 * other both ways, nor do sibling folders, however deep the files (workers/src/jobs importing a type from
 * emails/mail while emails/ imports jobs/ is a cycle). Every import counts: type-only, re-exports,
 * dynamic `import()`; relative ones, web's `@/…`, and a package's imports of itself by name (`@nh/server/…`
 * inside migrations/src, through its package.json `exports`). Tests (`*.test.ts(x)`) are left out: a
 * test drives its folder from above.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PACKAGES = ['shared', 'migrations', 'api', 'workers', 'web'];
const EXTENSIONS = ['.ts', '.tsx'];

function sourceFiles(dir) {
  const files = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) files.push(...sourceFiles(full));
    else if (/\.tsx?$/.test(entry.name) && !/\.(d|test)\.tsx?$/.test(entry.name)) files.push(full);
  }
  return files;
}

/** `base`, `base.ts`, `base.tsx`, `base/index.ts`, `base/index.tsx`: the first that is a file. */
function fileAt(base) {
  const candidates = [base, ...EXTENSIONS.map((ext) => base + ext), ...EXTENSIONS.map((ext) => path.join(base, `index${ext}`))];
  return candidates.find((candidate) => fs.existsSync(candidate) && fs.statSync(candidate).isFile());
}

/** The file a package's `exports` map gives for `subpath` ('.' or './x/y'): its exact key, else a `*` pattern. */
function exported(pkgDir, exportsMap, subpath) {
  if (exportsMap[subpath]) return fileAt(path.join(pkgDir, exportsMap[subpath]));
  for (const [key, target] of Object.entries(exportsMap)) {
    const [head, tail] = key.split('*');
    if (tail === undefined || !subpath.startsWith(head) || !subpath.endsWith(tail)) continue;
    const file = fileAt(path.join(pkgDir, target.replace('*', subpath.slice(head.length, subpath.length - tail.length))));
    if (file) return file;
  }
  return undefined;
}

/** Every import between two source files of one package's src (`from -> Set<to>`, absolute paths). */
function fileGraph(pkg) {
  const pkgDir = path.join(repo, pkg);
  const src = path.join(pkgDir, 'src');
  const manifest = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8'));
  const fail = (from, spec) => {
    throw new Error(`${path.relative(repo, from)}: cannot resolve ${spec}`);
  };
  const resolve = (from, spec) => {
    if (spec.startsWith('.')) return fileAt(path.resolve(path.dirname(from), spec)) ?? fail(from, spec);
    if (pkg === 'web' && spec.startsWith('@/')) return fileAt(path.join(src, spec.slice(2))) ?? fail(from, spec);
    if (spec === manifest.name || spec.startsWith(`${manifest.name}/`)) {
      return exported(pkgDir, manifest.exports ?? {}, `.${spec.slice(manifest.name.length)}`) ?? fail(from, spec);
    }
    return undefined; // another package or a library: not part of this package's graph
  };
  const edges = new Map();
  for (const file of sourceFiles(src)) {
    const targets = new Set();
    for (const { fileName } of ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true).importedFiles) {
      const target = resolve(file, fileName);
      if (target?.startsWith(src + path.sep)) targets.add(target);
    }
    edges.set(file, targets);
  }
  return { src, edges };
}

/**
 * The graph among the units of one folder: its own files (`.`) and each subfolder with everything under
 * it, with one import behind each edge (for the report).
 */
function unitGraph(dir, fileEdges) {
  const unitOf = (file) => {
    const rel = path.relative(dir, file);
    return rel.includes(path.sep) ? rel.split(path.sep)[0] : '.';
  };
  const inside = (file) => file.startsWith(dir + path.sep);
  const edges = new Map();
  const why = new Map();
  for (const [from, targets] of fileEdges) {
    if (!inside(from)) continue;
    const a = unitOf(from);
    if (!edges.has(a)) edges.set(a, new Set());
    for (const to of targets) {
      const b = inside(to) ? unitOf(to) : null;
      if (b === null || a === b) continue;
      edges.get(a).add(b);
      if (!why.has(`${a} -> ${b}`)) why.set(`${a} -> ${b}`, `${path.relative(dir, from)} imports ${path.relative(dir, to)}`);
    }
  }
  return { edges, why };
}

/** Strongly connected components with more than one node: the cycles. */
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
      if (scc.length > 1) found.push(scc.sort());
    }
  };
  for (const v of graph.keys()) if (!info.has(v)) visit(v);
  return found;
}

console.log("Folder imports, at each folder with subfolders ('.' = its own files; tests left out):\n");
let failed = false;
for (const pkg of PACKAGES) {
  const { src, edges: fileEdges } = fileGraph(pkg);
  // Every folder that has subfolders (a folder without any is a single unit).
  const folders = [
    ...new Set(
      [...fileEdges.keys()].flatMap((file) => {
        const parts = path.relative(src, path.dirname(file)).split(path.sep).filter(Boolean);
        return parts.map((_, i) => path.join(src, ...parts.slice(0, i)));
      }),
    ),
  ].sort();
  const found = [];
  for (const dir of folders) {
    const { edges, why } = unitGraph(dir, fileEdges);
    const name = path.relative(repo, dir);
    console.log(`${name}/`);
    const width = Math.max(...[...edges.keys()].map((unit) => unit.length));
    for (const unit of [...edges.keys()].sort()) {
      const deps = [...edges.get(unit)].sort();
      console.log(`  ${unit.padEnd(width)} -> ${deps.length ? deps.join(', ') : '(none)'}`);
    }
    for (const scc of cycles(edges)) {
      const lines = scc.flatMap((a) =>
        scc.filter((b) => why.has(`${a} -> ${b}`)).map((b) => `    ${a} -> ${b}: ${why.get(`${a} -> ${b}`)}`),
      );
      found.push(`  in ${name}/: ${scc.join(' <-> ')}\n${lines.join('\n')}`);
    }
  }
  console.log(`${pkg}/src folder cycles: ${found.length || 'none'}\n${found.map((cycle) => `${cycle}\n`).join('')}`);
  if (found.length) failed = true;
}
process.exit(failed ? 1 : 0);
