import type { FastifyInstance } from 'fastify';
import { STREAM_PATH } from '../../../contract/live.ts';
import type { Db } from '../../db/connect.ts';
import { fail, InputError } from '../../errors.ts';
import type { StreamHub } from '../../events/hub.ts';
import { resolveSession } from '../../services/sessions.ts';
import { PERMISSIONS_POLICY } from '../headers.ts';
import { bearerToken } from '../route.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** This process's open live streams (tests and benchmarks count them). */
    streams: StreamHub;
  }
}

/** A stream whose client has this much unread is dropped: it reconnects and is replayed from the database. */
const MAX_UNREAD_BYTES = 256 * 1024;

/**
 * GET /api/stream: the user's live events as server-sent events.
 *
 * A small handler rather than a plugin: the stream needs our own session check (the bearer token in the
 * Authorization header, as on every call, read by the PWA with fetch: a browser's EventSource cannot send
 * it, and a token in the URL would end up in logs and history), a replay from the database that every
 * process shares (a plugin's replay buffer is in one process's memory), and closing when the session
 * ends. What is left is a few headers and writes.
 *
 * Before the stream starts, a refusal is the usual JSON envelope: no token, an ended session, or a
 * Last-Event-ID that is not an event number.
 */
export function streamRoute(app: FastifyInstance, deps: { db: Db; hub: StreamHub }): void {
  app.get(STREAM_PATH, async (request, reply) => {
    const token = bearerToken(request);
    if (!token) throw fail('NotLoggedIn');
    const session = await resolveSession(deps.db, token);
    if (app.hasDecorator('countLimit')) await app.countLimit(`user:${session.userId}`, app.rateLimits.user);
    const raw = request.headers['last-event-id'];
    const lastEventId = Array.isArray(raw) ? raw[0] : raw;
    if (lastEventId !== undefined && lastEventId !== '' && !/^\d{1,18}$/.test(lastEventId)) {
      throw new InputError('ValidationError', 'Last-Event-ID', { zh: 'Last-Event-ID（须为事件编号）', en: 'Last-Event-ID (an event number)' });
    }
    const row = await deps.db.selectFrom('sessions').select('expires_at').where('id', '=', session.sessionId).executeTakeFirst();
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      // nginx and similar proxies buffer responses unless told not to: events would arrive in lumps.
      'x-accel-buffering': 'no',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'permissions-policy': PERMISSIONS_POLICY,
    });
    res.flushHeaders();
    // Past the headers nothing waits for Nagle: each event leaves at once.
    request.raw.socket.setNoDelay(true);
    const close = deps.hub.open(
      {
        userId: session.userId,
        sessionId: session.sessionId,
        expiresAt: row?.expires_at.getTime() ?? 0,
        write: (chunk) => {
          if (res.destroyed || res.writableEnded) return false;
          res.write(chunk);
          return res.writableLength <= MAX_UNREAD_BYTES;
        },
        end: () => res.end(),
      },
      lastEventId === '' ? undefined : lastEventId,
    );
    request.raw.on('close', close);
    res.on('close', close);
  });
}
