import Fastify, { type FastifyInstance, type FastifyError } from 'fastify';
import { Code, type CodeName } from '../../contract/codes.ts';
import type { Envelope } from '../../contract/envelope.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/connect.ts';
import { languageOf, loadMessages, type Translate } from '../i18n.ts';
import { AppError } from '../services/errors.ts';
import { LoginLimiter } from '../services/login-limiter.ts';
import { InputError } from './route.ts';
import { authRoutes } from './routes/auth.ts';
import { userRoutes } from './routes/user.ts';
import { registerStatic } from './static.ts';

declare module 'fastify' {
  interface FastifyReply {
    /** Sends `{code: 1, msg, data}` in the request's language. */
    envelope(data: unknown): FastifyReply;
  }
}

export interface AppDeps {
  db: Db;
  config: Pick<Config, 'sessionTtlMs' | 'limits' | 'staticDir' | 'logLevel'>;
  translate?: Translate;
  /** Extra routes (tests use it to reach the unexpected-failure path). */
  extend?: (app: FastifyInstance) => void;
}

/** The Fastify app: the /api routes of contract/calls.ts built so far, the envelope, the static PWA. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const translate = deps.translate ?? loadMessages();
  const app = Fastify({
    logger: { level: deps.config.logLevel, redact: ['req.headers.authorization', 'req.body'] },
    bodyLimit: 64 * 1024,
    trustProxy: false,
  });

  const body = (lang: 'zh' | 'en', name: CodeName, msg?: string): Envelope<null> => ({ code: Code[name], msg: msg ?? translate(lang, name), data: null });

  app.decorateReply('envelope', function (this: import('fastify').FastifyReply, data: unknown) {
    const lang = languageOf(this.request.headers.lang);
    return this.send({ code: Code.Success, msg: translate(lang, 'Success'), data } satisfies Envelope);
  });

  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    const lang = languageOf(request.headers.lang);
    if (error instanceof InputError) {
      // Generic codes name the field; specific ones (AccountFormat, ...) already say what is wrong.
      const generic = error.codeName === 'ValidationError' || error.codeName === 'RequiredFieldMissing';
      return reply.status(200).send(body(lang, error.codeName, generic ? `${translate(lang, error.codeName)}: ${error.field}` : undefined));
    }
    if (error instanceof AppError) return reply.status(200).send(body(lang, error.codeName, translate(lang, error.codeName, error.values)));
    // Malformed JSON, a wrong content type, a body too large: the client's fault, said plainly.
    const status = (error as FastifyError).statusCode ?? 500;
    if (status >= 400 && status < 500) return reply.status(200).send(body(lang, 'ValidationError'));
    request.log.error({ err: { message: error.message, code: (error as FastifyError).code } }, 'unexpected failure');
    return reply.status(500).send(body(lang, 'ServerError'));
  });

  const limiter = new LoginLimiter(deps.config.limits);
  const accounts = { db: deps.db, sessionTtlMs: deps.config.sessionTtlMs, limiter };
  authRoutes(app, accounts);
  userRoutes(app, accounts);
  deps.extend?.(app);

  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'no-referrer');
    return payload;
  });

  await registerStatic(app, deps.config.staticDir, (lang) => body(lang, 'NotFound'));
  return app;
}
