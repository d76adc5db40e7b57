#!/usr/bin/env bash
# `npm start`: install, build, migrate, seed an empty database, then run the API (serving the built SPA)
# and the worker process together. Ctrl-C (or SIGTERM) stops both.
set -euo pipefail
cd "$(dirname "$0")/.."
# A developer's run, said explicitly: the processes refuse an unset NODE_ENV outside a git checkout
# (docs/decisions/production-safety.md), and `npm start` is the local demo, with the sandbox and demo data.
export NODE_ENV="${NODE_ENV:-development}"
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules ]; then
  npm ci --no-audit --no-fund
fi
npm run build
node --import ./migrations/dist/instrument.js migrations/dist/migrate.js
node --import ./migrations/dist/instrument.js migrations/dist/seed.js
node --import ./api/dist/instrument.js api/dist/main.js & api=$!
node --import ./workers/dist/instrument.js workers/dist/main.js & worker=$!
trap 'kill -TERM $api $worker 2>/dev/null; wait $api $worker' INT TERM
wait -n $api $worker
status=$?
kill -TERM $api $worker 2>/dev/null || true
wait || true
exit $status
