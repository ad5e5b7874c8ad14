import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SHELL_DATA_ID, type ShellData } from '@domain/schemas/app-shell.schema';
import type { Db } from '../../db/database';
import { loadShellData } from './app-shell.service';

/** The web build's manifest (`build.manifest` in vite.config.ts): each source module's file and the files it imports. */
type Manifest = Record<string, { file: string; imports?: string[] }>;

const LAYOUT = 'src/app/layout/app-layout.tsx';
/** The screens a signed-in browser opens on (a tablet reloading its warehouse, the dashboard) and their code. */
export const SCREEN_MODULES: readonly [RegExp, readonly string[]][] = [
  // `/` signed in goes on to the dashboard
  [/^\/(dashboard\/?)?$/, [LAYOUT, 'src/features/warehouses/pages/dashboard-page.tsx']],
  [/^\/warehouse\/[^/]+\/?$/, [LAYOUT, 'src/features/warehouses/pages/warehouse-page.tsx']],
];

/** The files `keys` load, with everything they import, in import order. */
function filesOf(manifest: Manifest, keys: readonly string[]): string[] {
  const files: string[] = [];
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || files.includes(chunk.file)) return;
    files.push(chunk.file);
    chunk.imports?.forEach(visit);
  };
  keys.forEach(visit);
  return files;
}

/** For each screen, the files its code needs beyond those index.html loads anyway. */
export function screenPreloads(manifest: Manifest): [RegExp, string[]][] {
  const loaded = new Set(filesOf(manifest, ['index.html']));
  return SCREEN_MODULES.map(([pattern, keys]) => [
    pattern,
    filesOf(manifest, keys).filter((file) => !loaded.has(file)),
  ]);
}

/** JSON that cannot end the script block it sits in, whatever text (a warehouse name) it carries. */
function jsonInHtml(data: ShellData): string {
  return JSON.stringify(data)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** index.html with `<link rel="modulepreload">` of `files` and, when given, the first screen's data. */
export function renderShell(html: string, files: readonly string[], data: ShellData | undefined): string {
  const links = files.map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`).join('');
  const block = data
    ? `<script type="application/json" id="${SHELL_DATA_ID}">${jsonInHtml(data)}</script>`
    : '';
  return html.replace('</head>', `${links}</head>`).replace('</body>', `${block}</body>`);
}

function readManifest(webDistDir: string): Manifest {
  try {
    return JSON.parse(fs.readFileSync(path.join(webDistDir, '.vite', 'manifest.json'), 'utf8')) as Manifest;
  } catch {
    // a build without a manifest: the pages load their code as they did, one step after the other
    return {};
  }
}

export interface AppShell {
  /** Answers a client-side route with the app's HTML. */
  send(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply>;
}

/**
 * Serves the web build (issue 11, item 7; docs/performance.md): the hashed assets for a year, and the app's HTML for
 * every client-side route. Signed out, the HTML is index.html as built. Signed in, it also carries the first screen's
 * data (`ShellData`, read with the session's company only) and preloads the signed-in chrome and the screen's code, so
 * a phone draws the screen after the HTML and the code arrive, without waiting for the session, the warehouse list
 * and the screen's code one after the other. The signed-in HTML is private, has no ETag and varies with the cookie.
 * Answers null without a web build.
 */
export async function serveWebBuild(
  app: FastifyInstance,
  options: { db: Db; webDistDir: string },
): Promise<AppShell | null> {
  const { db, webDistDir } = options;
  const indexPath = path.join(webDistDir, 'index.html');
  if (!fs.existsSync(indexPath)) return null;
  await app.register(fastifyStatic, {
    root: webDistDir,
    wildcard: false,
    // `/` is a client-side route like the others (send below), signed in or not
    index: false,
    setHeaders(res, filePath) {
      const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
      res.header('Cache-Control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  const html = fs.readFileSync(indexPath, 'utf8');
  const preloads = screenPreloads(readManifest(webDistDir));

  return {
    async send(request, reply) {
      reply.header('Vary', 'Cookie');
      const user = request.user;
      if (!user) return reply.header('Cache-Control', 'no-cache').sendFile('index.html');
      const pathname = request.url.split('?')[0]!;
      let data: ShellData | undefined;
      try {
        data = await loadShellData(db, user, pathname);
      } catch (error) {
        // the page still opens and asks the API itself, which answers the fault readably
        request.log.warn({ err: error }, 'first screen data not read');
      }
      const files = preloads.find(([pattern]) => pattern.test(pathname))?.[1] ?? [];
      return reply
        .header('Cache-Control', 'private, no-cache')
        .type('text/html; charset=utf-8')
        .send(renderShell(html, files, data));
    },
  };
}
