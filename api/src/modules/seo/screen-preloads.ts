/**
 * `<link rel="modulepreload">` tags for the chunks of a server-rendered page's screen and the chunks it
 * imports, so the browser fetches them beside the entry script instead of after it: it hydrates once
 * they are in, and until then a click on the rendered page does nothing. Read from the client build's
 * manifests: `.vite/ssr-manifest.json` (a module → the chunk that holds it; rollup merges some screens
 * into shared chunks, so the plain manifest cannot name them) and `.vite/manifest.json` (a chunk → the
 * chunks it imports). The entry's own chunks are left out: index.html loads them already.
 */
import fs from 'node:fs';
import path from 'node:path';

interface ManifestChunk {
  file: string;
  imports?: string[];
}

/** The tags for the given screens (`src/…` module paths); '' when the manifests are missing. */
export type ScreenPreloads = (screens: readonly string[]) => string;

export function screenPreloads(webDist: string): ScreenPreloads {
  const manifestFile = path.join(webDist, '.vite', 'manifest.json');
  const ssrManifestFile = path.join(webDist, '.vite', 'ssr-manifest.json');
  // Read once per build, as index.html is (a rebuild changes the manifest's modification time).
  let cached: { mtimeMs: number; chunksOf: (screen: string) => string[] } | null = null;

  const load = () => {
    if (!fs.existsSync(manifestFile) || !fs.existsSync(ssrManifestFile)) return null;
    const { mtimeMs } = fs.statSync(manifestFile);
    if (cached?.mtimeMs === mtimeMs) return cached;
    const chunks = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as Record<string, ManifestChunk>;
    const modules = JSON.parse(fs.readFileSync(ssrManifestFile, 'utf8')) as Record<string, string[]>;
    const keyOfFile = new Map(Object.entries(chunks).map(([key, chunk]) => [chunk.file, key]));
    const walk = (key: string, into: Set<string>) => {
      if (into.has(key) || !chunks[key]) return;
      into.add(key);
      for (const imported of chunks[key].imports ?? []) walk(imported, into);
    };
    const fromEntry = new Set<string>();
    walk('index.html', fromEntry);
    cached = {
      mtimeMs,
      chunksOf: (screen) => {
        const keys = new Set<string>();
        for (const url of modules[screen] ?? []) {
          const key = url.endsWith('.js') ? keyOfFile.get(url.replace(/^\//, '')) : undefined;
          if (key) walk(key, keys);
        }
        return [...keys].filter((key) => !fromEntry.has(key)).map((key) => `/${chunks[key]!.file}`);
      },
    };
    return cached;
  };

  return (screens) => {
    const manifests = load();
    if (!manifests) return '';
    const files = new Set(screens.flatMap((screen) => manifests.chunksOf(screen)));
    return [...files].map((file) => `<link rel="modulepreload" crossorigin href="${file}" />`).join('');
  };
}
