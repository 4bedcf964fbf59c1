import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { fieldText } from './field-words.ts';
import { calls } from './calls.ts';

type Def = { type: string; shape?: Record<string, z.ZodType>; options?: z.ZodType[]; innerType?: z.ZodType; in?: z.ZodType; element?: z.ZodType };
const defOf = (s: z.ZodType): Def => (s as unknown as { _zod: { def: Def } })._zod.def;

/** Every field path of a schema, as a refusal names it ("params.start.time"; an array's items as "ids.0"). */
function paths(schema: z.ZodType, at: string, out: Set<string>): Set<string> {
  const def = defOf(schema);
  if (def.type === 'object') {
    for (const [key, inner] of Object.entries(def.shape ?? {})) {
      const path = at ? `${at}.${key}` : key;
      out.add(path);
      paths(inner, path, out);
    }
  } else if (def.type === 'union') for (const option of def.options ?? []) paths(option, at, out);
  else if (def.type === 'array' && def.element) paths(def.element, `${at}.0`, out);
  else if (def.innerType ?? def.in) paths((def.innerType ?? def.in)!, at, out);
  return out;
}

const everyPath = (() => {
  const out = new Set<string>();
  for (const call of Object.values(calls) as Partial<Record<'body' | 'query' | 'params', z.ZodType>>[])
    for (const part of ['body', 'query', 'params'] as const) if (call[part]) paths(call[part], '', out);
  return [...out];
})();

describe('a refused field in words (no raw field path reaches a trader)', () => {
  it('names every field of every call in zh and en, never by its path nor as a bare "parameter"', () => {
    expect(everyPath.length).toBeGreaterThan(80);
    const unnamed = everyPath.flatMap((path) =>
      (['zh', 'en'] as const).flatMap((lang) => {
        const text = fieldText(path, lang);
        const raw = text.includes(path) && /[.A-Z_]/.test(path);
        return raw || ['请求参数', 'a request field', '参数', 'parameter'].includes(text) ? [`${path} (${lang}): ${text}`] : [];
      }),
    );
    expect(unnamed).toEqual([]);
  });

  it('says the screens’ words for the bot parameters of each type', () => {
    expect(fieldText('params.takeProfit', 'zh')).toBe('止盈');
    expect(fieldText('params.grids', 'zh')).toBe('网格数量');
    expect(fieldText('params.grids', 'en')).toBe('number of grids');
    expect(fieldText('params.maxSafetyOrders', 'en')).toBe('safety orders');
    expect(fieldText('params.start.time', 'zh')).toBe('时间');
    expect(fieldText('params.entry.conditions.1.right.period', 'en')).toBe('buy rule, condition 2, right side, period');
    expect(fieldText('params.start.rule.conditions.0.left.period', 'zh')).toBe('开单条件 第 1 个条件 左侧 周期数');
  });

  it('names the request itself, a list of fields, and anything unknown without echoing it', () => {
    expect(fieldText('content-type', 'zh')).toBe('请求格式');
    expect(fieldText('symbol,exchangeId', 'en')).toBe('pair, exchange account');
    expect(fieldText('ids.3', 'zh')).toBe('所选策略');
    expect(fieldText('no.such.thing', 'en')).toBe('a request field');
  });
});
