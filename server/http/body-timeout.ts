import type { FastifyInstance } from 'fastify';

export const REQUEST_TOO_SLOW = 'The request took too long to arrive. Nothing was saved; please try again.';

/**
 * Node's requestTimeout stops counting once a request has reached its route, so a client that stops sending
 * halfway through a body (an upload) would hold its connection, and a graceful shutdown, for as long as it likes.
 * A request with a body must have sent all of it within `limitMs`; otherwise it is answered 408 and its
 * connection closed. Requests without a body (live-update streams among them) are not affected.
 */
export function limitBodyTime(app: FastifyInstance, limitMs: number): void {
  app.addHook('onRequest', async (request, reply) => {
    const raw = request.raw;
    const hasBody =
      Number(raw.headers['content-length'] ?? 0) > 0 || raw.headers['transfer-encoding'] !== undefined;
    if (!hasBody || raw.complete) return;
    const timer = setTimeout(() => {
      // answered already (a refusal that did not need the body): the idle time-out and the shutdown take it from here
      if (raw.complete || reply.sent || reply.raw.headersSent) return;
      request.log.warn('the request body did not arrive in time; closing the connection');
      reply.raw.once('finish', () => raw.socket?.destroy());
      void reply
        .code(408)
        .header('connection', 'close')
        .send({ errors: [REQUEST_TOO_SLOW] });
    }, limitMs);
    timer.unref();
    const done = () => clearTimeout(timer);
    raw.once('end', done);
    raw.once('close', done);
    reply.raw.once('finish', done);
    reply.raw.once('close', done);
  });
}
