import type { ExplainPart } from '../../../strategy/custom/explain.ts';

/*
 * The words of the engine's rule explanations (strategy/custom/explain.ts) in zh or en: a custom bot's
 * rules, a DCA bot's indicator start, and the indicator panes of a bot's chart all say them alike.
 */
export type Lang = 'zh' | 'en';
const words = {
  price: { zh: '价格', en: 'price' },
  and: { zh: '且', en: 'and' },
  or: { zh: '或', en: 'or' },
  crossesAbove: { zh: '上穿', en: 'crosses above' },
  crossesBelow: { zh: '下穿', en: 'crosses below' },
  upper: { zh: '布林上轨', en: 'BB upper' },
  middle: { zh: '布林中轨', en: 'BB middle' },
  lower: { zh: '布林下轨', en: 'BB lower' },
  macd: { zh: 'MACD', en: 'MACD' },
  signal: { zh: 'MACD 信号线', en: 'MACD signal' },
  histogram: { zh: 'MACD 柱', en: 'MACD histogram' },
  change: { zh: '涨跌幅%', en: 'change %' },
} as const;

/** One part of a rule in zh or en: "RSI(14, 1h)", "价格" / "price", "上穿" / "crosses above", "且" / "and". */
export function partWords(p: ExplainPart, lang: Lang): string {
  if (typeof p === 'number') return String(p);
  if (p === '>' || p === '<') return p;
  if (typeof p === 'string') return words[p][lang];
  switch (p.indicator) {
    case 'bb':
      return `${words[p.band][lang]}(${p.period}, ${p.deviation}, ${p.timeframe})`;
    case 'macd':
      return `${words[p.line][lang]}(${p.fast}, ${p.slow}, ${p.signal}, ${p.timeframe})`;
    case 'change':
      return `${words.change[lang]}(${p.period}, ${p.timeframe})`;
    case 'sma':
      return `MA(${p.period}, ${p.timeframe})`;
    default:
      return `${p.indicator.toUpperCase()}(${p.period}, ${p.timeframe})`;
  }
}

export const ruleWords = (parts: readonly ExplainPart[], lang: Lang): string => parts.map((p) => partWords(p, lang)).join(' ');
