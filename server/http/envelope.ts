import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { Code, type CodeName } from '../../contract/codes.ts';
import type { Envelope, Language } from '../../contract/envelope.ts';
import { fieldText } from '../../contract/field-words.ts';
import { languageOf, type Translate } from '../i18n.ts';
import { AppError } from '../errors.ts';
import { InputError } from '../errors.ts';

declare module 'fastify' {
  interface FastifyReply {
    /** Sends `{code: 1, msg, data}` in the request's language. */
    envelope(data: unknown): FastifyReply;
  }
}

/** An error envelope: the code and its text in `lang` (or the given text). */
export function errorEnvelope(translate: Translate, lang: Language, name: CodeName, msg?: string): Envelope<null> {
  return { code: Code[name], msg: msg ?? translate(lang, name), data: null };
}

/**
 * Answer data already serialised (a cached answer served many times): put into the envelope as it is,
 * not serialised again.
 */
export class JsonText {
  readonly text: string;
  /** The whole success envelope as bytes, per answer language: a repeated answer is only written out. */
  private readonly envelopes = new Map<string, Buffer>();
  constructor(value: unknown) {
    this.text = JSON.stringify(value);
  }
  envelope(msg: string): Buffer {
    let bytes = this.envelopes.get(msg);
    if (!bytes) {
      bytes = Buffer.from(`{"code":${Code.Success},"msg":${JSON.stringify(msg)},"data":${this.text}}`);
      this.envelopes.set(msg, bytes);
    }
    return bytes;
  }
}

/** Which part of the request a Fastify 4xx is about, named like a field in the validation message. */
function partOf(code: string | undefined): string {
  if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return 'content-type';
  if (code === 'FST_ERR_CTP_INVALID_CONTENT_LENGTH') return 'content-length';
  if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') return 'body (too large)';
  return 'body';
}

function messageOf(translate: Translate, lang: Language, error: AppError): string {
  if (error instanceof InputError) {
    // Generic codes name the field; specific ones (AccountFormat, ...) already say what is wrong.
    const generic = error.codeName === 'ValidationError' || error.codeName === 'RequiredFieldMissing' || error.codeName === 'StrategyInvalidParams';
    // The field in words, never its path (contract/field-words.ts).
    return generic ? `${translate(lang, error.codeName)}: ${error.label?.[lang] ?? fieldText(error.field, lang)}` : translate(lang, error.codeName);
  }
  return translate(lang, error.codeName, error.options.values);
}

/**
 * Every answer as the envelope. Business outcomes and bad input: HTTP 200 with their code. Fastify's
 * own 4xx (malformed JSON, wrong content type, body too large): HTTP 200 ValidationError. Anything
 * else: HTTP 500 ServerError with a generic text; the log gets the error's name, message, code and stack
 * (for the operator), never the request's body or headers.
 */
export function registerEnvelope(app: FastifyInstance, translate: Translate): void {
  app.decorateReply('envelope', function (this: FastifyReply, data: unknown) {
    const lang = languageOf(this.request.headers.lang);
    if (data instanceof JsonText) {
      this.type('application/json; charset=utf-8');
      return this.send(data.envelope(translate(lang, 'Success')));
    }
    return this.send({ code: Code.Success, msg: translate(lang, 'Success'), data } satisfies Envelope);
  });

  app.setErrorHandler((error: FastifyError | AppError | unknown, request, reply) => {
    const lang = languageOf(request.headers.lang);
    // Business outcomes are HTTP 200; an AppError may name another status (a rate limit: 429).
    if (error instanceof AppError) {
      const status = (error as AppError & { statusCode?: unknown }).statusCode;
      return reply.status(typeof status === 'number' ? status : 200).send({ code: Code[error.codeName], msg: messageOf(translate, lang, error), data: null } satisfies Envelope<null>);
    }
    const e = (error ?? {}) as Partial<FastifyError>;
    const status = typeof e.statusCode === 'number' ? e.statusCode : 500;
    if (status >= 400 && status < 500) return reply.status(200).send(errorEnvelope(translate, lang, 'ValidationError', `${translate(lang, 'ValidationError')}: ${fieldText(partOf(e.code), lang)}`));
    // A whitelist, not the error object: driver errors carry extra fields (a failing row's values).
    request.log.error({ err: { name: e.name, message: String(e.message ?? error), code: e.code, stack: e.stack } }, 'unexpected failure');
    return reply.status(500).send(errorEnvelope(translate, lang, 'ServerError'));
  });
}
