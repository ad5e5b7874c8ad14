import fs from 'node:fs';
import path from 'node:path';

export default function globalSetup() {
  if (!fs.existsSync(path.resolve('dist/web/index.html'))) {
    throw new Error('Build the web app first: npx vite build');
  }
}
