import type { FastifyInstance } from 'fastify';
import { PAGE_SIZE_DEFAULT } from '../../../contract/rules.ts';
import type { Db } from '../../db/connect.ts';
import { receiveSignal, resetWebhook, signalsOf, webhookOf } from '../../services/signals.ts';
import type { Trading } from '../../trading.ts';
import { route } from '../route.ts';
import { clientAddress } from '../client-address.ts';
import { AppError } from '../../services/errors.ts';

/**
 * Signal bots (issue 16 §4): the owner's calls (the webhook, a new token, the signals) and the public
 * webhook `POST /api/signal/{token}` (docs/api.md "Signal webhooks"), outside the call table: its body
 * is whatever the alerting service sends, read here as text so a bad one is recorded and logged on the
 * bot too, never refused before the token is known. Rate-limited per source like every public call;
 * its requests are not logged (the path holds the token); a token that opens no bot is, without it.
 */
export function signalRoutes(app: FastifyInstance, deps: { db: Db; trading: Trading }): void {
  const { db, trading } = deps;
  const auth = { auth: true } as const;
  route(app, db, 'userBotWebhook', auth, ({ session, query }) => webhookOf(db, session.userId, query.id));
  route(app, db, 'userBotWebhookReset', auth, ({ session, body }) => resetWebhook(db, session.userId, body.id));
  route(app, db, 'userBotSignals', auth, ({ session, query }) => signalsOf(db, session.userId, query.id, query.page ?? 1, query.page_size ?? PAGE_SIZE_DEFAULT));
  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));
    scope.route<{ Params: { token: string } }>({
      method: 'POST',
      url: '/api/signal/:token',
      logLevel: 'silent',
      ...(app.hasDecorator('publicLimit') ? { config: { rateLimit: app.publicLimit('signal') } } : {}),
      handler: async (request, reply) => {
        try {
          return reply.envelope(await receiveSignal(db, trading, request.params.token, request.body ?? ''));
        } catch (e) {
          // A token that opens no bot has no bot to log it on: the operator's log says it (someone may be
          // guessing tokens; the source is limited like any public call), never the token or the path.
          if (e instanceof AppError && e.codeName === 'SignalTokenInvalid') app.log.warn({ ip: clientAddress(request) }, 'signal webhook: a token that opens no bot was refused');
          throw e;
        }
      },
    });
  });
}
