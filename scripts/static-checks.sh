#!/usr/bin/env bash
# The static checks of `npm test`: the type check, the linter and the formatter's check, run at once (each is
# single-threaded; one after another they took about 100 CPU-s and as long on the clock before vitest started). Each
# one's output is printed whole once it ends, in this order; fails when any of them fails.
#
# The linter and the formatter keep their caches under node_modules/.cache, by content: no rule of the linter reads
# another file's types (eslint.config.js), so a file's result depends on its content and the config alone, which the
# caches are keyed by (`npm ci` starts CI from none).
set -uo pipefail
cd "$(dirname "$0")/.."
PATH="$PWD/node_modules/.bin:$PATH"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

tsc --noEmit -p . >"$out/tsc" 2>&1 &
tsc=$!
eslint --cache --cache-strategy content --cache-location node_modules/.cache/eslint/ . >"$out/eslint" 2>&1 &
eslint=$!
prettier --check --cache --cache-strategy content . >"$out/prettier" 2>&1 &
prettier=$!

failed=0
for check in tsc eslint prettier; do
  if wait "${!check}"; then
    echo "$check: ok"
  else
    failed=1
    echo "$check: FAILED"
  fi
  cat "$out/$check"
done
exit "$failed"
