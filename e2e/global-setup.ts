import fs from 'node:fs';
import path from 'node:path';
import { E2E_WEB_DIST } from './e2e-env';

export default function globalSetup() {
  if (!fs.existsSync(path.join(E2E_WEB_DIST, 'index.html'))) {
    throw new Error('Build the web app first: npx vite build');
  }
}
