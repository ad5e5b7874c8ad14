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

step "lint and format"
npx eslint .
npx prettier --check . --log-level warn

step "typecheck"
npx tsc -p tsconfig.json --noEmit

step "unit tests"
npx vitest run --project unit

step "API tests on SQLite and PostgreSQL"
read -r pg_url pg_dir < <(bash scripts/postgres-temp.sh start)
trap 'bash scripts/postgres-temp.sh stop "$pg_dir"' EXIT
TEST_POSTGRES_URL="$pg_url" npx vitest run --project api

step "build the web app"
npx vite build --logLevel warn

step "end-to-end tests in Chromium"
TEST_POSTGRES_URL="$pg_url" npx playwright test

printf '\nAll test stages passed in %ss.\n' "$(( $(date +%s) - started ))"
