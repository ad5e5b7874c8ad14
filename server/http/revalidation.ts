import type { FastifyReply, FastifyRequest, onSendHookHandler } from 'fastify';

/**
 * Cheap full reads (issue 11): an answer that carries an ETag made from a revision the database moves on with every
 * write it depends on. The client sends it back in If-None-Match and gets a 304 without the answer being built.
 */

/** A weak ETag (compression changes the bytes, not the meaning) from the parts that identify one state. */
export function revisionTag(...parts: (string | number)[]): string {
  return `W/"${parts.join('.')}"`;
}

function matches(header: string | undefined, tag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  // a weak comparison: W/ prefixes do not count
  const bare = tag.replace(/^W\//, '');
  return header.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === bare);
}

/**
 * Puts the ETag on the answer; true when the client already holds this state, after the 304 has been sent.
 * Read the revision BEFORE the data it covers: then a write in between only makes the tag older than the data,
 * and the client fetches once more, never keeps stale data under a new tag.
 */
export function notModified(request: FastifyRequest, reply: FastifyReply, tag: string): boolean {
  void reply.header('ETag', tag);
  if (!matches(request.headers['if-none-match'], tag)) return false;
  void reply.code(304).send();
  return true;
}

/**
 * Route option for these answers: a browser may keep them but must ask every time (fetch() then sends If-None-Match
 * by itself). Set in the route's own onSend hook, which runs after the app-wide hooks, so it wins over a general
 * "no-store" for signed-in answers; an answer without an ETag (an error) is left to the general rule.
 */
export const revalidateEveryTime: onSendHookHandler = (_request, reply, payload, done) => {
  if (reply.hasHeader('ETag') && (reply.statusCode === 200 || reply.statusCode === 304))
    void reply.header('Cache-Control', 'private, no-cache');
  done(null, payload);
};
