import type { FastifyInstance, FastifyRequest } from 'fastify';
import { forbidden } from './errors';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Refuses writes whose Origin is another site's, on top of SameSite cookies. */
export function refuseCrossSiteWrites(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    if (SAFE_METHODS.has(request.method)) return;
    const origin = request.headers.origin;
    if (request.headers['sec-fetch-site'] === 'cross-site') throw forbidden('Cross-site request refused.');
    if (!origin) return;
    let originHost: string;
    try {
      originHost = new URL(origin).host;
    } catch {
      throw forbidden('Cross-site request refused.');
    }
    if (originHost !== request.headers.host) throw forbidden('Cross-site request refused.');
  });
}

function sameHost(url: string | undefined, host: string | undefined): boolean {
  if (!url) return false;
  try {
    return new URL(url).host === host;
  } catch {
    return false;
  }
}

/**
 * Whether a request comes from this site itself (or is typed in, or comes from a client that is no browser).
 * Browsers say where a request comes from in Sec-Fetch-Site; older ones are judged by Origin, then Referer.
 * Used where a GET changes something (logout), which SameSite=Lax cookies do not protect from top-level navigation.
 */
export function isSameOriginRequest(request: FastifyRequest): boolean {
  const site = request.headers['sec-fetch-site'];
  if (typeof site === 'string') return site === 'same-origin' || site === 'none';
  const host = request.headers.host;
  if (request.headers.origin !== undefined) return sameHost(request.headers.origin, host);
  if (request.headers.referer !== undefined) return sameHost(request.headers.referer, host);
  return true;
}

/**
 * Headers for every answer: API answers are never stored by a browser or proxy (`Cache-Control: no-store`, unless
 * a route chose its own), and Strict-Transport-Security only when the site is served over HTTPS.
 */
export function securityHeaders(app: FastifyInstance, { cookieSecure }: { cookieSecure: boolean }): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.url.startsWith('/api/') && !reply.hasHeader('cache-control'))
      reply.header('Cache-Control', 'no-store');
    if (cookieSecure || request.protocol === 'https')
      reply.header('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
    return payload;
  });
}

export function contentSecurityPolicy(extraConnectSources: string[]) {
  return {
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      // Radix injects small <style> blocks for scroll locking
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'blob:'],
      fontSrc: ["'self'", 'data:'],
      connectSrc: ["'self'", ...extraConnectSources],
      formAction: ["'self'", ...extraConnectSources],
      frameAncestors: ["'none'"],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      upgradeInsecureRequests: null,
    },
  };
}
