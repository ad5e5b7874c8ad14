// npm start: builds the web app when it is missing or older than its sources, compiles the server into one
// file (no TypeScript loader at run time: less memory, faster start), then runs it.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const built = path.resolve('dist/web/index.html');

function newestMtime(dir) {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : fs.statSync(full).mtimeMs);
  }
  return newest;
}

const sourcesChanged = () =>
  Math.max(newestMtime('web'), newestMtime('domain'), fs.statSync('vite.config.ts').mtimeMs) >
  fs.statSync(built).mtimeMs;

if (!fs.existsSync(built) || sourcesChanged()) {
  console.log('Building the web app...');
  const result = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const { build } = await import('esbuild');
const serverFile = path.resolve('dist/server/main.mjs');
await build({
  entryPoints: ['server/main.ts'],
  outfile: serverFile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // dependencies stay in node_modules
  packages: 'external',
  logLevel: 'warning',
});

// glibc gives each thread that compresses answers its own malloc arena and rarely hands them back; two arenas cut
// the resident size after a burst of large answers by about 100 MiB (docs/performance.md). Without a limit V8 sizes
// its heap from the machine's memory and lets garbage pile up to ~190 MB in a burst (the live heap stays under
// 70 MB); with a limit of 512 MB it collects sooner and the process stays ~120 MiB lower (decision 014).
const server = spawn(process.execPath, ['--max-old-space-size=512', serverFile], {
  stdio: 'inherit',
  env: { MALLOC_ARENA_MAX: '2', ...process.env },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 0));
