import type { FastifyInstance } from 'fastify';

/** One API route as the server registered it, e.g. `PUT /api/vaults/:id`. */
export interface ApiRoute {
  method: string;
  url: string;
  /** `METHOD url`, the name recipes are keyed by */
  key: string;
  params: string[];
}

// Fastify adds a HEAD twin for every GET; the web app's files are served outside /api/
const SKIPPED_METHODS = new Set(['HEAD', 'OPTIONS']);

/** Every API route the app answers, read from the server itself so a newly added route cannot be missed. */
export function apiRoutes(app: FastifyInstance): ApiRoute[] {
  const seen = new Map<string, ApiRoute>();
  for (const { method, url } of app.routeTable) {
    if (SKIPPED_METHODS.has(method) || !url.startsWith('/api/')) continue;
    const key = `${method} ${url}`;
    if (!seen.has(key)) seen.set(key, { method, url, key, params: pathParams(url) });
  }
  return [...seen.values()];
}

export function pathParams(url: string): string[] {
  return [...url.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]!);
}
