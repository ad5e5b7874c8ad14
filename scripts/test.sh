#!/usr/bin/env bash
# npm test: lint, typecheck, unit, API (SQLite and PostgreSQL) and browser tests, on a fresh machine too.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n=== %s ===\n' "$1"; }
started=$(date +%s)

if [ ! -d node_modules ]; then
  step "npm install"
  npm install --no-audit --no-fund
fi

step "system packages (Chromium, PostgreSQL)"
bash scripts/ensure-system-deps.sh

# Lint and format checks are one core's work, the typecheck and the web build the other's: run them side by side.
step "lint, format, typecheck and web build (side by side)"
lint_log=$(mktemp)
(npx eslint . && npx prettier --check . --log-level warn) >"$lint_log" 2>&1 &
lint_pid=$!
npx tsc -p tsconfig.json --noEmit
npx vite build --logLevel warn
if ! wait "$lint_pid"; then
  cat "$lint_log"
  echo "lint or format check failed" >&2
  exit 1
fi
cat "$lint_log"
rm -f "$lint_log"

step "unit tests"
npx vitest run --project unit

step "API tests on SQLite and PostgreSQL"
read -r pg_url pg_dir < <(bash scripts/postgres-temp.sh start)
trap 'bash scripts/postgres-temp.sh stop "$pg_dir"' EXIT
TEST_POSTGRES_URL="$pg_url" npx vitest run --project api

step "end-to-end tests in Chromium"
TEST_POSTGRES_URL="$pg_url" npx playwright test

# The failover drill (issue 32) last and alone: it times seconds of a three-node PostgreSQL cluster, which other
# stages' load would distort. FAILOVER_DRILL=skip leaves it out (for a quick local run).
if [ "${FAILOVER_DRILL:-run}" != skip ]; then
  step "failover drill: PostgreSQL pair with automatic failover"
  npm run --silent test:failover
fi

printf '\nAll test stages passed in %ss.\n' "$(( $(date +%s) - started ))"
