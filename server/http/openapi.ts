import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Call } from '../../contract/call.ts';
import { calls, type CallName } from '../../contract/calls.ts';
import { namedAnswers } from '../../contract/components.ts';
import { Code } from '../../contract/codes.ts';
import { languages, LANG_HEADER } from '../../contract/envelope.ts';

/**
 * The API as an OpenAPI 3.1 document, generated from the contract: each call of contract/calls.ts
 * with its path and method, its inputs and its answer inside the envelope. A peer's tools (Schemathesis, client generators) read it from
 * GET /api/openapi.json; nothing here is written by hand but the envelope around the data.
 */

type Json = Record<string, unknown>;
type Part = 'body' | 'query' | 'params';

/** The JSON Schema 2020-12 keywords the document's schemas use (zod's output and the envelopes), as its readers see them. */
export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  description?: string;
}
export interface OpenApiParameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  description?: string;
  schema: JsonSchema;
}
type JsonContent = { 'application/json': { schema: JsonSchema } };
export interface OpenApiOperation {
  operationId: CallName;
  tags: string[];
  summary: string;
  /** Present (empty) on the public calls only. */
  security?: [];
  parameters: (OpenApiParameter | { $ref: string })[];
  requestBody?: { required: boolean; content: JsonContent };
  responses: Record<'200' | '500', { description: string; content: JsonContent }>;
}
/** The document as buildOpenApi makes it (a type, not an interface: it is also a plain JSON record). */
export type OpenApiDoc = {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string };
  servers: { url: string }[];
  security: Record<string, []>[];
  /** Path, then lower-case method. */
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: {
    securitySchemes: Record<string, { type: string; scheme: string; description: string }>;
    parameters: Record<string, OpenApiParameter>;
    schemas: Record<string, JsonSchema>;
  };
};

const COMPONENTS = '#/components/schemas/';
/** Names a call's answer component when its data has no shared name: `userBotList` -> `UserBotListData`. */
const dataName = (name: string) => `${name[0]!.toUpperCase()}${name.slice(1)}Data`;

/** JSON Schema keywords that describe the document, not the value: out of place inside OpenAPI. */
function clean(schema: Json): JsonSchema {
  const { $schema: _schema, $id: _id, ...rest } = schema;
  // zod's output: the keywords of JsonSchema (and no others that anything here reads).
  return rest as JsonSchema;
}

/** A regular expression for the decimal numbers (no leading zero) from `a` to `b`, both of one length. */
function sameLength(a: string, b: string): string {
  if (a === b) return a;
  const group = (x: string) => (x.includes('|') ? `(?:${x})` : x);
  if (a[0] === b[0]) return a[0] + group(sameLength(a.slice(1), b.slice(1)));
  const rest = a.length - 1;
  const tail = rest ? `\\d{${rest}}` : '';
  const parts: string[] = [];
  let from = Number(a[0]);
  let to = Number(b[0]);
  if (!/^0*$/.test(a.slice(1))) {
    parts.push(a[0] + group(sameLength(a.slice(1), '9'.repeat(rest))));
    from++;
  }
  const last = /^9*$/.test(b.slice(1)) ? '' : b[0] + group(sameLength('0'.repeat(rest), b.slice(1)));
  if (last) to--;
  if (from <= to) parts.push(`${from === to ? from : `[${from}-${to}]`}${tail}`);
  if (last) parts.push(last);
  return parts.join('|');
}

/** A pattern matching exactly the whole numbers from `min` to `max` written without leading zeros (min >= 1). */
export function integerRangePattern(min: number, max: number): string {
  const parts: string[] = [];
  for (let length = String(min).length; length <= String(max).length; length++) {
    const from = Math.max(min, 10 ** (length - 1));
    const to = Math.min(max, 10 ** length - 1);
    if (from <= to) parts.push(sameLength(String(from), String(to)));
  }
  return `^(?:${parts.join('|')})$`;
}

/**
 * A query number arrives as digits and is parsed to a bounded integer (contract/fields.ts `positiveInt`): the
 * input side alone would allow any digits, so its pattern is narrowed to the bounds the server checks.
 */
function boundDigits(ctx: { zodSchema: unknown; jsonSchema: Json }): void {
  const def = (ctx.zodSchema as z.ZodType).def as { type: string; out?: unknown };
  if (def.type !== 'pipe' || !(def.out instanceof z.ZodNumber)) return;
  const { minValue, maxValue, isInt } = def.out;
  const digits = /^\^\[1-9\]\\d\{0,(\d+)\}\$$/.exec(String(ctx.jsonSchema.pattern ?? ''));
  if (!digits || !isInt || minValue === null || maxValue === null || minValue < 1 || String(maxValue).length > Number(digits[1]) + 1) return;
  ctx.jsonSchema.pattern = integerRangePattern(minValue, maxValue);
  ctx.jsonSchema.description = `A whole number from ${minValue} to ${maxValue}.`;
}

/** A request part as JSON Schema: what the client sends (`io: 'input'`), before any transform. */
function inputSchema(schema: z.ZodType): JsonSchema {
  return clean(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'throw', override: boundDigits }) as Json);
}

/**
 * The answers as components: the shared shapes under their names, every other call's data under
 * `<Call>Data`; nested shared shapes become references. Returns the components and each call's ref.
 */
function answerComponents(): { components: Record<string, JsonSchema>; refs: Record<CallName, string> } {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(namedAnswers)) registry.add(schema, { id });
  const refs = {} as Record<CallName, string>;
  for (const [name, { answer: schema }] of Object.entries(calls as Record<CallName, Call>) as [CallName, Call][]) {
    if (!registry.has(schema)) registry.add(schema, { id: dataName(name) });
    refs[name] = `${COMPONENTS}${registry.get(schema)!.id}`;
  }
  const out = z.toJSONSchema(registry, { io: 'output', unrepresentable: 'throw', uri: (id) => `${COMPONENTS}${id}` });
  const components = Object.fromEntries(Object.entries(out.schemas).map(([id, s]) => [id, clean(s as Json)]));
  return { components, refs };
}

/** The fields of a query or path object schema as OpenAPI parameters. */
function parametersOf(schema: z.ZodType, where: 'query' | 'path'): OpenApiParameter[] {
  const json = inputSchema(schema);
  const properties = json.properties ?? {};
  const required = new Set(json.required ?? []);
  return Object.entries(properties).map(([name, s]) => ({ name, in: where, required: where === 'path' || required.has(name), schema: s }));
}

/** One call as an OpenAPI operation. */
function operationOf(name: CallName, dataRef: string): OpenApiOperation {
  const spec: Call = calls[name];
  const parts: Partial<Record<Part, z.ZodType>> = spec;
  const parameters: OpenApiOperation['parameters'] = [{ $ref: '#/components/parameters/Lang' }];
  if (parts.params) parameters.push(...parametersOf(parts.params, 'path'));
  if (parts.query) parameters.push(...parametersOf(parts.query, 'query'));
  const success: JsonSchema = {
    type: 'object',
    properties: { code: { const: Code.Success }, msg: { type: 'string' }, data: { $ref: dataRef }, show: { enum: [0, 1] }, redirect: { type: 'string' } },
    required: ['code', 'msg', 'data'],
    additionalProperties: false,
  };
  const tag = spec.path.split('/')[1]!;
  return {
    operationId: name,
    tags: [tag],
    summary: `${spec.method} /api${spec.path}`,
    ...('public' in spec ? { security: [] } : {}),
    parameters,
    ...(parts.body
      ? {
          requestBody: {
            // An optional body (logout, paper reset) may be left out entirely.
            required: !parts.body.safeParse(undefined).success,
            content: { 'application/json': { schema: inputSchema(parts.body) } },
          },
        }
      : {}),
    responses: {
      '200': {
        description: 'The envelope: code 1 with the data, or an error code with data null (business errors and bad input are HTTP 200).',
        content: { 'application/json': { schema: { oneOf: [success, { $ref: `${COMPONENTS}ErrorEnvelope` }] } } },
      },
      '500': {
        description: 'An unexpected failure: ServerError.',
        content: { 'application/json': { schema: { $ref: `${COMPONENTS}ErrorEnvelope` } } },
      },
    },
  };
}

/** The whole document. Pure: the same contract gives the same document. */
export function buildOpenApi(): OpenApiDoc {
  const { components, refs } = answerComponents();
  const paths: OpenApiDoc['paths'] = {};
  for (const name of Object.keys(calls) as CallName[]) {
    const spec = calls[name];
    const path = `/api${spec.path.replace(/:([A-Za-z_]\w*)/g, '{$1}')}`;
    // TypeScript already demands an answer schema per call; this guards a call added at run time.
    if (!refs[name]) throw new Error(`contract/calls.ts has no answer schema for ${name}`);
    const operations = paths[path] ?? {};
    operations[spec.method.toLowerCase()] = operationOf(name, refs[name]);
    paths[path] = operations;
  }
  const errorCodes = Object.values(Code).filter((c) => c !== Code.Success);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Quantbot API',
      version: '1.0.0',
      description: 'Every answer is the envelope {code, msg, data}: code 1 is success; any other code is an error with data null (contract/codes.ts).',
    },
    servers: [{ url: '/' }],
    security: [{ bearer: [] }],
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'The token that login, register and wallet verify answer.' } },
      parameters: {
        Lang: { name: LANG_HEADER, in: 'header', required: false, description: 'The language of `msg` (default zh).', schema: { type: 'string', enum: [...languages] } },
      },
      schemas: {
        ...components,
        ErrorEnvelope: {
          type: 'object',
          properties: {
            code: { type: 'integer', enum: errorCodes },
            msg: { type: 'string' },
            data: { type: 'null' },
            show: { enum: [0, 1] },
            redirect: { type: 'string' },
          },
          required: ['code', 'msg', 'data'],
          additionalProperties: false,
        },
      },
    },
  };
}

let serialised: string | undefined;

/** Registers GET /api/openapi.json: the document, built and serialised once per process, for anyone (no token). */
export function openApiRoute(app: FastifyInstance): void {
  serialised ??= JSON.stringify(buildOpenApi());
  const text = serialised;
  app.get('/api/openapi.json', async (_request, reply) => reply.type('application/json; charset=utf-8').send(text));
}
