import path from 'node:path';

export const E2E_PORT = 3211;
export const E2E_BASE_URL = `http://127.0.0.1:${E2E_PORT}`;
export const E2E_DATABASE_FILE = path.resolve('.tmp', 'e2e', 'warehouse.db');
