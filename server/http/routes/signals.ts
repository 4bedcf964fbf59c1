import type { FastifyInstance } from 'fastify';
import { PAGE_SIZE_DEFAULT } from '../../../contract/rules.ts';
import type { Db } from '../../db/connect.ts';
import { countRefused, receiveSignal, resetWebhook, signalBotOf, signalsOf, webhookOf } from '../../services/signals.ts';
import type { Trading } from '../../trading.ts';
import { InputError } from '../../errors.ts';
import { registerCalls } from '../route.ts';
import { clientAddress } from '../client-address.ts';
import { AppError, fail } from '../../errors.ts';
import { sourceOf } from '../../services/login-limiter.ts';
import { inputProblem, jsonDepthOver } from '../input-check.ts';
import { RateLimitedError } from '../rate-limit.ts';
import { languageOf } from '../../i18n.ts';

/**
 * Signal bots: the owner's calls (the webhook, a new token, the signals) and the public
 * webhook `POST /api/signal/{token}` (docs/api.md "Signal webhooks"), outside the call table: its body
 * is whatever the alerting service sends, read here as text so that a bad one is counted on its bot,
 * never refused before the token is known. Its requests are not logged (the path holds the token); a
 * token that opens no bot is, without it.
 *
 * Its limits (RATE_LIMIT_SIGNAL, RATE_LIMIT_SIGNAL_TOKEN, SIGNAL_MIN_GAP_S): a valid token has its
 * bot's own budget, so alerts from one shared sender address (TradingView sends every customer's from a
 * few) never limit another bot's; tokens that open no bot count per source in a bucket of their own,
 * which a valid token never consults; a running bot acts on one signal per gap.
 */
export function signalRoutes(app: FastifyInstance, deps: { db: Db; trading: Trading; gapMs: number }): void {
  const { db, trading } = deps;
  const limited = app.hasDecorator('countLimit');
  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));
    scope.route<{ Params: { token: string } }>({
      method: 'POST',
      url: '/api/signal/:token',
      logLevel: 'silent',
      handler: async (request, reply) => {
        const bot = await signalBotOf(db, request.params.token);
        if (!bot) {
          // A token that opens no bot has no bot to count it on: its source's own bucket counts it (over
          // it: 1020), and the operator's log says it while under it (someone may be guessing tokens),
          // never the token or the path.
          const source = clientAddress(request);
          if (limited) await app.countLimit(`signal-token:${sourceOf(source)}`, app.rateLimits.signalToken);
          app.log.warn({ ip: source }, 'signal webhook: a token that opens no bot was refused');
          throw fail('SignalTokenInvalid');
        }
        // An alert names no language (TradingView sends none): it is answered in the one its owner made the webhook in.
        if (request.headers.lang === undefined) request.headers.lang = bot.lang;
        if (limited) await app.countLimit(`signal:${bot.id}`, app.rateLimits.signal);
        const text = typeof request.body === 'string' ? request.body : '';
        // The same input checks as every call: no NUL, no nesting deeper than any signal needs.
        const problem = signalInputProblem(text);
        if (problem) {
          await countRefused(db, bot.id, problem);
          throw new InputError('ValidationError', problem);
        }
        try {
          return reply.envelope(await receiveSignal(db, trading, bot, text, { gapMs: deps.gapMs }));
        } catch (e) {
          if (e instanceof AppError && e.codeName === 'RateLimited') throw new RateLimitedError(Number(e.options.values?.seconds ?? 1));
          throw e;
        }
      },
    });
  });
  registerCalls(app, db, {
    userBotWebhook: ({ session, query }) => webhookOf(db, session.userId, query.id),
    userBotWebhookReset: ({ session, body, request }) => resetWebhook(db, session.userId, body.id, languageOf(request.headers.lang)),
    userBotSignals: ({ session, query }) => signalsOf(db, session.userId, query.id, query.page ?? 1, query.page_size ?? PAGE_SIZE_DEFAULT),
  });
}

/** Where a signal's text breaks the input rules (a NUL, too deep), or null; text that is not JSON is the schema's to refuse. */
function signalInputProblem(text: string): string | null {
  if (jsonDepthOver(text)) return 'body (too deep)';
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  return inputProblem(value)?.path ?? null;
}
