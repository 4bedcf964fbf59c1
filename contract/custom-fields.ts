/**
 * A custom bot's parameter as the trader knows it, in zh or en, from the path a problem names
 * (strategy/custom/rules.ts validateCustom: "entry.conditions.1.right.period" -> "buy rule, condition 2,
 * right side, period" / "买入规则 第 2 个条件 右侧 周期"): what an error message says instead of the path.
 */
const words: Record<string, { zh: string; en: string }> = {
  investment: { zh: '投资额', en: 'investment' },
  size: { zh: '仓位', en: 'position size' },
  quote: { zh: '每次买入金额', en: 'amount per entry' },
  percent: { zh: '每次买入占投资比例', en: 'share of the investment per entry' },
  entry: { zh: '买入规则', en: 'buy rule' },
  exit: { zh: '卖出规则', en: 'sell rule' },
  join: { zh: '且 / 或', en: 'and / or' },
  conditions: { zh: '条件', en: 'conditions' },
  op: { zh: '比较方式', en: 'comparison' },
  left: { zh: '左侧', en: 'left side' },
  right: { zh: '右侧', en: 'right side' },
  kind: { zh: '类型', en: 'type' },
  value: { zh: '数值', en: 'number' },
  period: { zh: '周期数', en: 'period' },
  timeframe: { zh: 'K 线周期', en: 'timeframe' },
  band: { zh: '布林带轨道', en: 'band' },
  deviation: { zh: '标准差倍数', en: 'deviation' },
  line: { zh: 'MACD 线', en: 'MACD line' },
  fast: { zh: '快线周期', en: 'fast period' },
  slow: { zh: '慢线周期', en: 'slow period' },
  signal: { zh: '信号线周期', en: 'signal period' },
  takeProfit: { zh: '止盈', en: 'take profit' },
  stopLoss: { zh: '止损', en: 'stop loss' },
  trailingDeviation: { zh: '追踪止盈回调', en: 'trailing take profit deviation' },
  trailingStop: { zh: '追踪止损', en: 'trailing stop loss' },
  repeat: { zh: '循环', en: 'repeat' },
};

export function customFieldText(field: string, lang: 'zh' | 'en'): string {
  const parts: string[] = [];
  const segments = field.split('.').filter((s) => s !== '');
  for (const [i, s] of segments.entries()) {
    // "conditions.1": the 2nd condition (the screens count from 1).
    if (/^\d+$/.test(s)) {
      parts.pop();
      parts.push(lang === 'zh' ? `第 ${Number(s) + 1} 个条件` : `condition ${Number(s) + 1}`);
      continue;
    }
    // "size.kind": the sizing itself.
    if (s === 'kind' && segments[i - 1] === 'size') continue;
    parts.push(words[s]?.[lang] ?? (lang === 'zh' ? '参数' : 'parameter'));
  }
  if (parts.length === 0) return lang === 'zh' ? '参数' : 'parameters';
  return parts.join(lang === 'zh' ? ' ' : ', ');
}
