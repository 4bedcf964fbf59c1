import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { calls, type CallName } from '../../contract/calls.ts';
import { openTestApp, type TestApp } from '../testing/test-support.ts';
import { buildOpenApi, integerRangePattern, type OpenApiParameter } from './openapi.ts';
import { docValidator } from './openapi-validate.ts';

const names = Object.keys(calls) as CallName[];
const pathOf = (name: CallName) => `/api${calls[name].path.replace(/:(\w+)/g, '{$1}')}`;

/** GET /api/openapi.json: the contract as OpenAPI 3.1, for a peer's test tools. */
describe('the OpenAPI document', () => {
  const doc = buildOpenApi();
  /** A call's operation in the document. */
  const opOf = (name: CallName) => doc.paths[pathOf(name)]![calls[name].method.toLowerCase()]!;
  /** An operation's own parameters (the shared Lang header is a reference). */
  const paramsOf = (name: CallName) => opOf(name).parameters.filter((p): p is OpenApiParameter => 'in' in p);
  let t: TestApp;
  beforeAll(async () => {
    t = await openTestApp('pglite');
  });
  afterAll(() => t.close());

  it('is valid OpenAPI 3.1 by the specification’s own schema', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc));
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    expect(doc.openapi).toBe('3.1.0');
    // The validator does refuse a broken document.
    const { info: _info, ...broken } = structuredClone(doc);
    Object.assign(broken.paths['/api/user/account']!.get!, { responses: 'none' });
    expect((await new Validator().validate(broken)).valid).toBe(false);
  });

  it('holds only valid JSON Schema 2020-12, every reference resolving', () => {
    const text = JSON.stringify(doc);
    for (const [, ref] of text.matchAll(/"\$ref":"#\/components\/(schemas|parameters)\/([^"]+)"/g).map((m) => [m[0], `${m[1]}/${m[2]}`])) {
      const [kind, name] = ref!.split('/') as ['schemas' | 'parameters', string];
      expect(doc.components[kind][name], ref).toBeDefined();
    }
    expect(docValidator(doc).compileAll()).toBeGreaterThan(names.length);
  });

  it('lists every call of contract/calls.ts once, with its method and path, and nothing else', () => {
    const listed = Object.entries(doc.paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => [op.operationId, `${method.toUpperCase()} ${path}`]));
    expect(Object.fromEntries(listed)).toEqual(Object.fromEntries(names.map((n) => [n, `${calls[n].method} ${pathOf(n)}`])));
    expect(listed).toHaveLength(names.length);
  });

  it('asks for the bearer token except on the public calls', () => {
    expect(doc.components.securitySchemes.bearer).toEqual(expect.objectContaining({ type: 'http', scheme: 'bearer' }));
    expect(doc.security).toEqual([{ bearer: [] }]);
    for (const name of names) {
      const op = opOf(name);
      if ('public' in calls[name]) expect(op.security, name).toEqual([]);
      else expect(op.security, name).toBeUndefined();
    }
  });

  it('takes each call’s body, query and path fields from contract/calls.ts', () => {
    for (const name of names) {
      const op = opOf(name);
      const parts = calls[name] as Partial<Record<'body' | 'query' | 'params', z.ZodType>>;
      const fields = (where: string) =>
        paramsOf(name)
          .filter((p) => p.in === where)
          .map((p) => p.name)
          .sort();
      const keys = (s: z.ZodType | undefined) => Object.keys((s as unknown as { shape?: object } | undefined)?.shape ?? {}).sort();
      expect(fields('query'), name).toEqual(keys(parts.query));
      expect(fields('path'), name).toEqual(keys(parts.params));
      expect(
        paramsOf(name)
          .filter((p) => p.in === 'path')
          .every((p) => p.required),
        name,
      ).toBe(true);
      if (parts.body) {
        expect(op.requestBody?.content['application/json'].schema, name).toBeDefined();
        expect(op.requestBody?.required, name).toBe(!parts.body.safeParse(undefined).success);
      } else {
        expect(op.requestBody, name).toBeUndefined();
      }
    }
    // Inputs as the client sends them: query numbers are strings, checked by pattern.
    const list = paramsOf('userBotList').find((p) => p.name === 'page_size');
    expect(list).toMatchObject({ in: 'query', required: false, schema: { type: 'string', pattern: expect.any(String) } });
    expect(opOf('loginAccount').requestBody?.content['application/json'].schema).toMatchObject({ required: ['terminal', 'account', 'password'], additionalProperties: false });
  });

  it('writes a pattern for exactly the whole numbers of a range', () => {
    for (const [min, max] of [
      [1, 100],
      [1, 1_000_000],
      [3, 254],
      [17, 17],
      [9, 10],
      [120, 1999],
    ] as const) {
      const re = new RegExp(integerRangePattern(min, max));
      const wrong = Array.from({ length: 3001 }, (_, n) => n).filter((n) => re.test(String(n)) !== (n >= min && n <= max));
      expect(wrong, `${min}..${max}`).toEqual([]);
      expect([re.test(String(max + 1)), re.test(`0${min}`), re.test('')]).toEqual([false, false, false]);
    }
  });

  it('accepts exactly the query and path values the server accepts', () => {
    const probes = [
      '',
      '0',
      '1',
      '9',
      '10',
      '99',
      '100',
      '101',
      '1000',
      '1000000',
      '1000001',
      '999999999',
      '1000000000',
      '01',
      '-1',
      '1.5',
      '1e3',
      ' 1',
      'abc',
      'paper',
      'BTC/USDT',
      'BSC',
      'zh',
      'running',
      '1d',
    ];
    let compared = 0;
    for (const name of names) {
      const parts = calls[name] as Partial<Record<'query' | 'params', z.ZodObject>>;
      for (const p of paramsOf(name).filter((x) => x.in === 'query' || x.in === 'path')) {
        const field = (p.in === 'query' ? parts.query : parts.params)!.shape[p.name] as z.ZodType;
        const pattern = p.schema.pattern === undefined ? null : new RegExp(p.schema.pattern, 'u');
        for (const value of probes) {
          const byDoc = p.schema.enum
            ? p.schema.enum.includes(value)
            : p.schema.const !== undefined
              ? p.schema.const === value
              : (pattern?.test(value) ?? true) && value.length >= (p.schema.minLength ?? 0) && value.length <= (p.schema.maxLength ?? Infinity);
          expect(byDoc, `${name} ${p.name}=${JSON.stringify(value)}`).toBe(field.safeParse(value).success);
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(1000);
  });

  it('gives every answer’s data inside the envelope, and the error envelope beside it', () => {
    const v = docValidator(doc);
    for (const name of names) {
      const op = opOf(name);
      const success = op.responses['200'].content['application/json'].schema.oneOf?.[0];
      expect(success?.properties?.code, name).toEqual({ const: 1 });
      expect(success?.properties?.data?.$ref, name).toMatch(/^#\/components\/schemas\//);
      expect(v.answer(name)({ code: 1004, msg: 'Not found', data: null }), name).toBe(true);
      // Data of the wrong type in a success envelope is refused, unless null is the answer.
      const nullable = calls[name].answer.safeParse(null).success;
      expect(v.answer(name)({ code: 1, msg: 'ok', data: null }), name).toBe(nullable);
    }
    expect(v.answer('authProfile')({ code: 1, msg: 'ok', data: { sn: '1' } })).toBe(false);
    expect(v.answer('userAccount')({ code: 1, msg: 'ok', data: { usdt: '1', fuel: '2', points: '0', rewards: '0' } })).toBe(true);
    expect(v.answer('userAccount')({ code: 1, msg: 'ok', data: { usdt: '1', fuel: '2', points: '0', rewards: '0', secret: 'x' } })).toBe(false);
    expect(v.answer('userAccount')({ code: 1, msg: 'ok', data: { usdt: 1, fuel: '2', points: '0', rewards: '0' } })).toBe(false);
    expect(v.answer('userAccount')({ code: 99999, msg: 'x', data: null })).toBe(false);
    expect(doc.components.schemas.BotSummary).toMatchObject({ type: 'object', additionalProperties: false });
  });

  it('is served at GET /api/openapi.json without a token', async () => {
    const r = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toMatch(/^application\/json/);
    expect(r.json()).toEqual(doc);
  });
});
