import type { ServerResponse } from 'node:http';
import type { FastifyPluginAsync } from 'fastify';
import { requireUser } from '../auth/session.plugin';
import type { Db } from '../db/database';
import { type EventFeed, type LiveEvent, toLiveEvent } from './event-feed';
import { findCompanyEventsAfter, latestEventId } from './event-log.repo';

const HEARTBEAT_MS = 25_000;

function frame(event: LiveEvent): string {
  return `id: ${event.id}\nevent: change\ndata: ${JSON.stringify(event)}\n\n`;
}

/** GET /api/events: a server-sent event stream of the signed-in user's company's changes. */
export const eventsRoutes: FastifyPluginAsync<{ db: Db; feed: EventFeed }> = async (app, { db, feed }) => {
  const open = new Set<ServerResponse>();
  // streams never end by themselves: close them so a graceful shutdown does not wait forever
  app.addHook('preClose', async () => {
    for (const res of open) res.end();
  });

  app.get('/api/events', async (request, reply) => {
    const user = requireUser(request);
    const lastSeen = Number(request.headers['last-event-id'] ?? NaN);

    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    // the browser reconnects by itself after a drop, 2 s later, and sends the last id it saw
    res.write('retry: 2000\n\n');

    open.add(res);
    const send = (event: LiveEvent) => res.write(frame(event));
    const unsubscribe = feed.subscribe(user.companyId, send);
    if (Number.isInteger(lastSeen) && lastSeen >= 0) {
      // catch up on what happened while this browser was away
      for (const row of await findCompanyEventsAfter(db, user.companyId, lastSeen, 1000))
        send(toLiveEvent(row));
    } else {
      const latest = await latestEventId(db);
      res.write(`id: ${latest}\nevent: ready\ndata: ${JSON.stringify({ latest })}\n\n`);
    }
    const heartbeat = setInterval(() => res.write(': keep-alive\n\n'), HEARTBEAT_MS);
    request.raw.on('close', () => {
      clearInterval(heartbeat);
      unsubscribe();
      open.delete(res);
    });
  });
};
