#!/usr/bin/env bash
# `npm run bench:paired -- <base commit> [bench …]`: the five server benchmarks (catalog, checkout, sync,
# export, admin; or those named) on <base commit> and on this work tree, one after the other for each benchmark, so both sides
# of a pair see the same machine minutes apart. The base is checked out into a temporary git worktree
# (npm ci there); each run's whole output is kept in the printed folder, and its result lines are
# printed side by side. Sizes are smaller than each benchmark's default so the pair fits in ~20 min;
# every size can be raised through the usual BENCH_* variables. When this tree has a built web app (the
# API then loads the server-render bundle, ~150 ms on two cores: before it listens since issue 26, as it
# started in older bases), the base is built too, so both sides start alike. Each side of each pair runs
# on a fresh database of its own (nh_paired_<bench>_<side> on BENCH_DATABASE_SERVER, default the local
# server), so a migration of the head never changes what the base is measured on.
set -euo pipefail
base=${1:?usage: npm run bench:paired -- <base commit> [bench …]}
shift
benches=("$@")
[ ${#benches[@]} -gt 0 ] || benches=(catalog checkout sync export admin)
head=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
tree="$work/base/main"
mkdir -p "$work/base" "$work/out"
ln -s "$(cd "$head/.." && pwd)/shared" "$work/base/shared"
git -C "$head" worktree add --detach -q "$tree" "$base"
trap 'git -C "$head" worktree remove --force "$tree"' EXIT
(cd "$tree" && npm ci --prefer-offline --no-audit --no-fund >/dev/null 2>&1)
if [ -d "$head/web/dist-server" ]; then (cd "$tree" && npm run -s build:web >/dev/null 2>&1); fi

export BENCH_SECONDS=${BENCH_SECONDS:-5}
export BENCH_RATES=${BENCH_RATES:-50,100} BENCH_OPEN_SECONDS=${BENCH_OPEN_SECONDS:-10}
export BENCH_ORDERS=${BENCH_ORDERS:-1000} BENCH_BUDGET=${BENCH_BUDGET:-0}
export BENCH_EXPORT_ROWS=${BENCH_EXPORT_ROWS:-300000} BENCH_ADMIN_ROWS=${BENCH_ADMIN_ROWS:-300000} BENCH_ADMIN_REPEATS=${BENCH_ADMIN_REPEATS:-20}

server=${BENCH_DATABASE_SERVER:-postgres://postgres@127.0.0.1:5432}
echo "base $(git -C "$tree" rev-parse --short HEAD), head $(git -C "$head" rev-parse --short HEAD) (+ work tree); outputs in $work/out"
for bench in "${benches[@]}"; do
  for side in base head; do
    dir=$tree; [ "$side" = head ] && dir=$head
    # Each side on a database of its own, made afresh: a database the head migrated further (a trigger
    # a migration changed) would otherwise be measured as the base's.
    db="nh_paired_${bench}_${side}"
    psql -q "$server/postgres" -c "drop database if exists $db with (force)" >/dev/null
    (cd "$dir" && BENCH_DATABASE_URL="$server/$db" npm run -s "bench:$bench") >"$work/out/$bench-$side.txt" 2>&1 || echo "bench:$bench ($side) failed: see $work/out/$bench-$side.txt"
  done
  for side in base head; do
    echo "=== bench:$bench ($side)"
    # The figures: lines with a number and a unit or a ratio, without the progress chatter.
    grep -E '[0-9]' "$work/out/$bench-$side.txt" | grep -viE 'npm (warn|notice)|^\s*at |seeding|building' | tail -n 14
  done
done
