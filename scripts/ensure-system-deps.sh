#!/usr/bin/env bash
# Makes sure Debian's Chromium (and its headless shell), PostgreSQL (with pg_auto_failover) and poppler-utils are present; installs them when running as root.
set -euo pipefail

need=()
command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ] || need+=(chromium)
# the browser tests drive Chromium's headless shell (the same engine, a third of the CPU)
[ -x /usr/bin/chromium-headless-shell ] || need+=(chromium-headless-shell)
ls -d /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need+=(postgresql)
# the failover test (npm run test:failover) runs a PostgreSQL pair with pg_auto_failover (decision 034)
command -v pg_autoctl >/dev/null 2>&1 || need+=(postgresql-15-auto-failover pg-auto-failover-cli)
# the label tests render PDF pages to images (pdftoppm) and read their size (pdfinfo)
command -v pdftoppm >/dev/null 2>&1 || need+=(poppler-utils)

if [ ${#need[@]} -eq 0 ]; then exit 0; fi

if [ "$(id -u)" -ne 0 ]; then
  echo "Missing system packages: ${need[*]}." >&2
  echo "Install them with: sudo apt-get install -y ${need[*]}" >&2
  exit 1
fi

echo "Installing Debian packages: ${need[*]} (once per machine)..."
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
echo "Installed: ${need[*]}"
