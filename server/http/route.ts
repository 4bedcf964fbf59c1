import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { calls, type AnswerOf, type CallName, type Calls, type CheckedOf } from '../../contract/calls.ts';
import type { Call } from '../../contract/call.ts';
import type { CodeName } from '../../contract/codes.ts';
import { kitOf, tradableTypes } from '../../strategy/kit.ts';
import type { Language } from '../../contract/envelope.ts';
import type { Db } from '../db/connect.ts';
import { languageOf } from '../i18n.ts';
import { fail, InputError } from '../errors.ts';
import { resolveSession, type SessionInfo } from '../services/sessions.ts';
import { clientAddress } from './client-address.ts';
import { inputProblem } from './input-check.ts';

/** Whether a call needs the bearer session: every call but those the contract marks public (sign-in). */
type Authed<N extends CallName> = Calls[N] extends { public: true } ? false : true;

export interface Context<N extends CallName> {
  body: CheckedOf<N, 'body'>;
  query: CheckedOf<N, 'query'>;
  params: CheckedOf<N, 'params'>;
  lang: Language;
  ip: string;
  session: Authed<N> extends true ? SessionInfo : null;
  request: FastifyRequest;
}

/** The code a bad top-level input field answers with: fixed, or chosen from the raw input. */
export type FieldCode = CodeName | ((input: Record<string, unknown>) => CodeName | undefined);
type FieldCodes = Partial<Record<string, FieldCode>>;

/** What a call answers, from its checked input (the envelope is added around it). */
export type Handler<N extends CallName> = (ctx: Context<N>) => AnswerOf<N> | Promise<AnswerOf<N>>;
/** A handler whose bad input fields answer with their own codes (default ValidationError / RequiredFieldMissing). */
export interface CodedHandler<N extends CallName> {
  fieldCodes: FieldCodes;
  handle: Handler<N>;
}
/** An area's calls and their handlers, which `registerCalls` registers. */
export type Handlers = { [N in CallName]?: Handler<N> | CodedHandler<N> };

function validate(schema: z.ZodType | undefined, value: unknown, fieldCodes: FieldCodes | undefined): unknown {
  if (!schema) return undefined;
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const field = issue.code === 'unrecognized_keys' ? issue.keys.join(',') : issue.path.map(String).join('.') || 'body';
  const top = String(issue.path[0] ?? '');
  const at = issue.path.reduce<unknown>((v, key) => (v && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[key as PropertyKey] : undefined), value);
  // JSON has no undefined: a field that fails while undefined was left out.
  const missing = issue.code !== 'unrecognized_keys' && at === undefined && issue.path.length > 0;
  const special = fieldCodes?.[top];
  const input = value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  const code = typeof special === 'function' ? special(input) : special;
  // A bot type's nested fields (a custom bot's rules) are named in words (zh / en) by its kit, not by their path.
  // An unknown key is the sender's own word, said as such (cut short); other fields are named in words by the envelope.
  const label = issue.code === 'unrecognized_keys' ? unknownKeyLabel(field) : top === 'params' && field.startsWith('params.') ? paramWords(input.type, field.slice('params.'.length)) : undefined;
  throw new InputError(code ?? (missing ? 'RequiredFieldMissing' : 'ValidationError'), field, label);
}

const paramWords = (type: unknown, path: string): Record<Language, string> | undefined => (typeof type === 'string' && tradableTypes.includes(type) ? kitOf(type).fieldWords?.(path) : undefined);
const unknownKeyLabel = (keys: string): Record<Language, string> => {
  const said = keys.length > 40 ? `${keys.slice(0, 40)}…` : keys;
  return { zh: `未知字段 ${said}`, en: `unknown field ${said}` };
};

/**
 * Refuses an input with a NUL character (values or keys) or nested too deep as a validation error
 * naming where (input-check.ts): PostgreSQL cannot store NUL, and no call needs deep nesting.
 */
export function checkInput(...parts: unknown[]): void {
  for (const part of parts) {
    const problem = inputProblem(part);
    if (problem) throw new InputError('ValidationError', problem.path);
  }
}

/** The bearer token of a request, '' when there is none. */
export function bearerToken(request: FastifyRequest): string {
  const header = request.headers.authorization ?? '';
  const match = /^Bearer +(\S+) *$/i.exec(header);
  return match?.[1] ?? '';
}

/** Registers each call of `handlers` (an area's, from its routes file): see `route`. */
export function registerCalls(app: FastifyInstance, db: Db, handlers: Handlers): void {
  for (const name of Object.keys(handlers) as CallName[]) route(app, db, name, handlers[name] as Handler<typeof name> | CodedHandler<typeof name>);
}

/**
 * Registers the handler of one contract call: method and path from contract/calls.ts; unless the call is
 * public, the bearer session resolved first (a caller without a valid token learns nothing about the
 * input rules); input checked against the call's schemas, strictly; the answer wrapped in the envelope.
 */
function route<N extends CallName>(app: FastifyInstance, db: Db, name: N, entry: Handler<N> | CodedHandler<N>): void {
  const { handle, fieldCodes } = typeof entry === 'function' ? { handle: entry, fieldCodes: undefined } : entry;
  const spec: Call = calls[name];
  const auth = !spec.public;
  app.route({
    method: spec.method,
    url: `/api${spec.path}`,
    // Every call that needs no token is rate-limited per source (http/rate-limit.ts), before anything else runs.
    ...(!auth && app.hasDecorator('publicCallLimit') ? { config: { rateLimit: app.publicCallLimit(name) } } : {}),
    handler: async (request, reply) => {
      let session: SessionInfo | null = null;
      if (auth) {
        const token = bearerToken(request);
        if (!token) throw fail('NotLoggedIn');
        session = await resolveSession(db, token);
        // Per trader, whatever address the calls come from (RATE_LIMIT_USER): one trader's calls never limit another's.
        if (app.hasDecorator('countLimit')) await app.countLimit(`user:${session.userId}`, app.rateLimits.user);
      }
      checkInput(request.body, request.query, request.params);
      const ctx = {
        body: validate(spec.body, request.body, fieldCodes),
        query: validate(spec.query, request.query, fieldCodes),
        params: validate(spec.params, request.params, fieldCodes),
        lang: languageOf(request.headers.lang),
        ip: clientAddress(request),
        session,
        request,
      } as Context<N>;
      const data = await handle(ctx);
      return reply.envelope(data ?? null);
    },
  });
}
