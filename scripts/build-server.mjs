// Bundles the server entry points (API, workers and its run-now command, migrate, seed, and their preloads) with esbuild: TypeScript sources of
// the workspaces are compiled in, npm packages stay external and load from node_modules. The API and the worker each
// have a preload (instrument.js, run with `node --import`) that starts OpenTelemetry tracing before main.js imports the
// modules it instruments, when OTEL_EXPORTER_OTLP_ENDPOINT is set (docs/decisions/observability.md, "Traces").
import { build } from 'esbuild';

const entries = {
  'api/dist/instrument': 'api/src/instrument.ts',
  'api/dist/main': 'api/src/main.ts',
  'workers/dist/instrument': 'workers/src/instrument.ts',
  'workers/dist/main': 'workers/src/main.ts',
  'workers/dist/run-now': 'workers/src/run-now.ts',
  'workers/dist/healthcheck': 'workers/src/healthcheck.ts',
  'migrations/dist/instrument': 'migrations/src/instrument.ts',
  'migrations/dist/migrate': 'migrations/src/migrate.ts',
  'migrations/dist/seed': 'migrations/src/seed.ts',
};

await build({
  entryPoints: Object.entries(entries).map(([out, input]) => ({ out, in: input })),
  outdir: '.',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: true,
  logLevel: 'warning',
  // Workspace packages are source, so bundle them; everything else is a real dependency.
  plugins: [
    {
      name: 'bundle-workspaces',
      setup(b) {
        b.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@nh/') ? undefined : { path: args.path, external: true }));
        // A glob import (the emails queue's `./${kind}.ts`) also matches the test files beside the modules:
        // they are bundled empty, else their `import … from 'vitest'` would load vitest in production (issue 26).
        b.onLoad({ filter: /\.test\.tsx?$/ }, () => ({ contents: '', loader: 'ts' }));
      },
    },
  ],
});
console.log('server bundles written:', Object.keys(entries).map((e) => `${e}.js`).join(', '));
