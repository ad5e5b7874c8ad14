import path from 'node:path';

// E2E_PORT and E2E_WEB_DIST let several runs share one machine (each with its own server, database and build).
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3211);
export const E2E_BASE_URL = `http://127.0.0.1:${E2E_PORT}`;
export const E2E_DIR = path.resolve('.tmp', `e2e-${E2E_PORT}`);
export const E2E_DATABASE_FILE = path.join(E2E_DIR, 'warehouse.db');
export const E2E_WEB_DIST = path.resolve(process.env.E2E_WEB_DIST ?? 'dist/web');

// Debian's headless shell of Chromium (package chromium-headless-shell): the same engine as /usr/bin/chromium
// without the desktop browser around it, a third of the CPU per journey (docs/performance.md, "The test suite").
export const E2E_CHROMIUM = '/usr/bin/chromium-headless-shell';
