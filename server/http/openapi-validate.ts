import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { JsonSchema, OpenApiDoc, OpenApiOperation } from './openapi.ts';

/**
 * Test support: checks answers against the published OpenAPI document itself (JSON Schema 2020-12,
 * as a peer's tool such as Schemathesis would), not against the zod schemas it was made from. The
 * document's `#/components/schemas/X` references become `#/$defs/X` of one root schema.
 */
export interface DocValidator {
  /** The validator of one operation's HTTP 200 answer (the envelope, success or error). */
  answer(operationId: string): ValidateFunction;
  /** Every schema of the document, compiled: throws on one that is not valid JSON Schema 2020-12. */
  compileAll(): number;
}

/** Builds the validators of a document (strict Ajv: an unknown keyword or format is an error; `type` lists are JSON Schema, allowed). */
export function docValidator(doc: OpenApiDoc): DocValidator {
  const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, validateFormats: true });
  (addFormats as unknown as (a: Ajv2020) => void)(ajv);
  const rewrite = <T>(value: T): T => JSON.parse(JSON.stringify(value).replaceAll('"#/components/schemas/', '"#/$defs/'));
  const $defs = rewrite(doc.components.schemas);
  const operations = new Map<string, OpenApiOperation>();
  for (const item of Object.values(doc.paths)) for (const op of Object.values(item)) operations.set(op.operationId, op);
  const cache = new Map<string, ValidateFunction>();
  const compile = (schema: JsonSchema): ValidateFunction => ajv.compile({ $defs, ...rewrite(schema) });
  return {
    answer(operationId) {
      let v = cache.get(operationId);
      if (!v) {
        const op = operations.get(operationId);
        if (!op) throw new Error(`no operation ${operationId}`);
        v = compile(op.responses['200'].content['application/json'].schema);
        cache.set(operationId, v);
      }
      return v;
    },
    compileAll() {
      let n = 0;
      for (const name of Object.keys($defs)) {
        compile({ $ref: `#/$defs/${name}` });
        n++;
      }
      for (const op of operations.values()) {
        this.answer(op.operationId);
        for (const p of op.parameters) if ('schema' in p) compile(p.schema);
        const body = op.requestBody?.content['application/json'].schema;
        if (body) compile(body);
        n++;
      }
      return n;
    },
  };
}
