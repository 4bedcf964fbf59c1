import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { calls } from '../../contract/calls.ts';
import type { CodeName } from '../../contract/codes.ts';
import type { Language } from '../../contract/envelope.ts';
import { schemas, type CallName, type DataOf } from '../../contract/schemas.ts';
import { AppError, fail } from '../services/errors.ts';
import { languageOf } from '../i18n.ts';
import { resolveSession, type SessionInfo } from '../services/sessions.ts';
import type { Db } from '../db/connect.ts';

type Schemas = (typeof schemas)[CallName];
type Parsed<N extends CallName, K extends string> = (typeof schemas)[N] extends Record<K, z.ZodType> ? z.output<(typeof schemas)[N][K]> : undefined;

export interface Context<N extends CallName, Authed extends boolean> {
  body: Parsed<N, 'body'>;
  query: Parsed<N, 'query'>;
  params: Parsed<N, 'params'>;
  lang: Language;
  ip: string;
  session: Authed extends true ? SessionInfo : null;
  request: FastifyRequest;
}

export interface RouteOptions<Authed extends boolean> {
  /** false for the calls that need no token (login, register, nonce). */
  auth: Authed;
  /** Which code a failing input field answers with (default ValidationError). */
  fieldCodes?: Partial<Record<string, CodeName>>;
}

/** Thrown for bad input; the message names the field. */
export class InputError extends AppError {
  readonly field: string;
  constructor(codeName: CodeName, field: string) {
    super(codeName);
    this.field = field;
  }
}

function validate(schema: z.ZodType | undefined, value: unknown, fieldCodes: RouteOptions<boolean>['fieldCodes']): unknown {
  if (!schema) return undefined;
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const field = issue.code === 'unrecognized_keys' ? issue.keys.join(',') : issue.path.map(String).join('.') || 'body';
  const top = String(issue.path[0] ?? '');
  const at = issue.path.reduce<unknown>((v, key) => (v && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[key as PropertyKey] : undefined), value);
  const missing = issue.code === 'invalid_type' && at === undefined;
  throw new InputError(fieldCodes?.[top] ?? (missing ? 'RequiredFieldMissing' : 'ValidationError'), field);
}

/**
 * Registers the handler of one contract call: method and path from contract/calls.ts, input checked
 * against contract/schemas.ts (strictly), the bearer session resolved when `auth`, the answer wrapped
 * in the envelope by the app.
 */
export function route<N extends CallName, Authed extends boolean>(
  app: FastifyInstance,
  db: Db,
  name: N,
  options: RouteOptions<Authed>,
  handler: (ctx: Context<N, Authed>) => Promise<DataOf[N]>,
): void {
  const spec = calls[name];
  const schema = schemas[name] as Schemas & Partial<Record<'body' | 'query' | 'params', z.ZodType>>;
  app.route({
    method: spec.method,
    url: `/api${spec.path}`,
    handler: async (request, reply) => {
      const lang = languageOf(request.headers.lang);
      let session: SessionInfo | null = null;
      if (options.auth) {
        const header = request.headers.authorization ?? '';
        const token = header.startsWith('Bearer ') ? header.slice(7).trim() : '';
        if (!token) throw fail('NotLoggedIn');
        session = await resolveSession(db, token);
      }
      const ctx = {
        body: validate(schema.body, request.body, options.fieldCodes),
        query: validate(schema.query, request.query, options.fieldCodes),
        params: validate(schema.params, request.params, options.fieldCodes),
        lang,
        ip: request.ip,
        session,
        request,
      } as Context<N, Authed>;
      const data = await handler(ctx);
      return reply.envelope(data ?? null);
    },
  });
}
