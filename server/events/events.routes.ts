import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  type LiveEventDto,
  LiveStreamQuerySchema,
  readWatchedWarehouses,
} from '@domain/schemas/live-event.schema';
import { requireUser } from '../auth/session.plugin';
import type { Db } from '../db/database';
import { HttpError, unauthorized } from '../http/errors';
import { fileAnswer } from '../http/file-answers';
import { EventIdTokens } from './event-id-token';
import { type EventFeed, type LiveEvent, toLiveEvent, warehousesOf } from './event-feed';
import { findCompanyEventIdsBetween, findCompanyEventsAfter, latestEventId } from './event-log.repo';
import { findLiveSessionIds } from './live-sessions.repo';
import { LiveStreamRegistry, MAX_STREAMS_PER_SESSION, type OpenStream } from './live-streams';

const HEARTBEAT_MS = 25_000;
/** A browser that missed more than this many events is told to refresh everything instead of being sent them all. */
export const CATCH_UP_LIMIT = 500;
// an event's id is handed out at insert and becomes visible at commit, so a slow transaction can appear late with a
// lower id than one already seen; the feed looks back this far for them, and so does a stream
const LATE_COMMIT_WINDOW = 200;
export const TOO_MANY_STREAMS = `Too many live update streams are open for this sign-in (at most ${MAX_STREAMS_PER_SESSION}). Close other tabs of the app and try again.`;

function presentLiveEvent(event: LiveEvent, withFields: boolean): LiveEventDto {
  const dto: LiveEventDto = {
    kind: event.kind,
    entityType: event.entityType,
    entityId: event.entityId,
    warehouseId: event.warehouseId,
    fieldId: event.fieldId,
    fromFieldId: event.fromFieldId,
    fromWarehouseId: event.fromWarehouseId,
    userId: event.userId,
    at: event.at,
  };
  if (withFields && event.fields) dto.fields = event.fields;
  return dto;
}

/**
 * GET /api/events: a server-sent event stream of the signed-in user's company's changes.
 * Frames: `ready` (a new stream starts at the present), `change` (one event), `reset` (the browser missed more than
 * can be sent, or its Last-Event-ID is not one of this company's: refresh everything) and `signed-out` (the session
 * ended; the stream ends with it). Every `id:` is a sealed token of (company, event id).
 * Query: `watch=1,2` the warehouses the browser shows: their changes come with the new state of the fields they
 * touched (decision 023); `last=` a Last-Event-ID for a browser that opens a new stream to watch other warehouses
 * (the header, which the browser sends on its own reconnects, wins).
 */
export const eventsRoutes: FastifyPluginAsync<{ db: Db; feed: EventFeed }> = async (plain, { db, feed }) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  // the key is read on the first stream, not at start, so a server can start while its database is still down
  let loading: Promise<EventIdTokens> | undefined;
  const loadTokens = () =>
    (loading ??= EventIdTokens.load(db).catch((error: unknown) => {
      loading = undefined;
      throw error;
    }));
  // the feed hands each event to every stream of its company: the frame is sealed and written out once for them all
  // (once without the fields, once with them for the streams that watch the warehouse)
  const frames = new WeakMap<LiveEvent, { id: string; plain?: string; withFields?: string }>();
  const streams = new LiveStreamRegistry((ids) => findLiveSessionIds(db, ids), HEARTBEAT_MS);
  streams.start();
  // streams never end by themselves: close them so a graceful shutdown does not wait forever
  app.addHook('preClose', async () => streams.stop());

  app.get(
    '/api/events',
    {
      schema: {
        tags: ['Live updates'],
        summary:
          "A server-sent event stream of the company's changes (frames ready, change, reset, signed-out)",
        querystring: LiveStreamQuerySchema,
        response: { 200: fileAnswer('text/event-stream', 'the stream; it ends when the session does') },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const sessionId = request.sessionId;
      if (!sessionId) throw unauthorized();
      const companyId = user.companyId;
      const tokens = await loadTokens();
      const res = reply.raw;
      const write = (text: string) => {
        if (!res.writableEnded && !res.destroyed) res.write(text);
      };
      const stream: OpenStream = {
        sessionId,
        userId: user.id,
        keepAlive: () => write(': keep-alive\n\n'),
        end: (reason) => {
          if (reason === 'signed-out') write('event: signed-out\ndata: {}\n\n');
          if (!res.writableEnded) res.end();
        },
      };
      // counted before the first await, so parallel requests cannot all slip under the limit
      if (!streams.add(stream)) throw new HttpError(429, [TOO_MANY_STREAMS]);

      reply.hijack();
      res.writeHead(200, {
        'Content-Type': 'text/event-stream; charset=utf-8',
        'Cache-Control': 'no-cache, no-transform',
        Connection: 'keep-alive',
        'X-Accel-Buffering': 'no',
      });
      // the browser reconnects by itself after a drop, 2 s later, and sends the last id it saw
      write('retry: 2000\n\n');

      const watched = new Set(readWatchedWarehouses(request.query.watch));
      const watches = (warehouseId: number) => watched.has(warehouseId);
      const send = (event: LiveEvent) => {
        let cached = frames.get(event);
        if (cached === undefined) frames.set(event, (cached = { id: tokens.seal(companyId, event.id) }));
        const withFields = event.fields !== undefined && warehousesOf(event).some(watches);
        const variant = withFields ? 'withFields' : 'plain';
        const frame = (cached[variant] ??=
          `id: ${cached.id}\nevent: change\ndata: ${JSON.stringify(presentLiveEvent(event, withFields))}\n\n`);
        write(frame);
      };
      // What this browser already has: events up to `floor`, and those in `known`. The feed may still hand over older
      // events (a backlog, or an event whose transaction committed late with a lower id); only the late ones are news.
      let floor = Number.MAX_SAFE_INTEGER;
      const known = new Set<number>();
      const isNews = (event: LiveEvent) => event.id > floor && !known.has(event.id);
      const startAtPresent = async (name: 'ready' | 'reset') => {
        const present = await latestEventId(db);
        floor = present - LATE_COMMIT_WINDOW;
        for (const id of await findCompanyEventIdsBetween(db, companyId, floor, present)) known.add(id);
        write(`id: ${tokens.seal(companyId, present)}\nevent: ${name}\ndata: {}\n\n`);
      };
      // live events wait while the start is read, so none is lost, sent twice or sent before older ones
      let waiting: LiveEvent[] | undefined = [];
      const unsubscribe = feed.subscribe(
        companyId,
        (event) => {
          if (waiting) waiting.push(event);
          else if (isNews(event)) send(event);
        },
        watches,
      );
      let closed = false;
      const close = () => {
        if (closed) return;
        closed = true;
        unsubscribe();
        streams.remove(stream);
      };
      res.on('close', close);
      // the browser may have gone while the session was looked up, before anyone listened
      if (res.destroyed || !res.socket || res.socket.destroyed) close();

      try {
        const header = request.headers['last-event-id'] ?? request.query.last;
        if (header === undefined || header === '') {
          await startAtPresent('ready');
        } else {
          const after = tokens.open(String(header).trim(), companyId);
          const rows =
            after === null ? null : await findCompanyEventsAfter(db, companyId, after, CATCH_UP_LIMIT + 1);
          if (after === null || rows === null || rows.length > CATCH_UP_LIMIT) {
            await startAtPresent('reset');
          } else {
            floor = after;
            for (const row of rows) {
              known.add(row.id);
              send(toLiveEvent(row));
            }
          }
        }
        const pending = waiting;
        waiting = undefined;
        for (const event of pending) if (isNews(event)) send(event);
      } catch (error) {
        // the head is sent: end the stream, and the browser reconnects and catches up
        request.log.error({ err: error }, 'live stream could not start');
        res.end();
      }
    },
  );
};
