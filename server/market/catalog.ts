import type { BotTemplate, BotType } from '../../contract/market.ts';
import type { BuiltBotType } from '../../contract/bots.ts';
import type { Language } from '../../contract/envelope.ts';
import { tradableTypes } from '../../strategy/kit.ts';

type Text = Record<Language, string>;
interface TypeEntry extends Omit<BotType, 'name' | 'description'> {
  name: Text;
  description: Text;
}

/**
 * The strategy types (docs/product.md §3). Whether one is available follows what the engine can trade (a kit in
 * strategy/kit.ts); the AI bot is available when the strategies its search proposes are.
 */
const available = (code: string) => (code === 'ai' ? ['martin', 'grid'].every((t) => tradableTypes.includes(t)) : tradableTypes.includes(code));
const entries: TypeEntry[] = [
  {
    id: 1,
    code: 'martin',
    category: 'dca',
    available: true,
    name: { zh: '马丁格尔策略', en: 'Martingale' },
    description: { zh: '逢跌分批加仓，整体止盈后循环', en: 'Buys more on each dip, takes profit on the whole position, repeats' },
  },
  {
    id: 2,
    code: 'ai',
    category: 'dca',
    available: false,
    name: { zh: 'AI 策略', en: 'AI' },
    description: { zh: '按市场状态自动调整加仓与止盈', en: 'Adapts adds and take profit to the market regime' },
  },
  {
    id: 3,
    code: 'grid',
    category: 'grid',
    available: false,
    name: { zh: '网格交易', en: 'Grid trading' },
    description: { zh: '在价格区间内低买高卖', en: 'Buys low and sells high inside a price range' },
  },
  {
    id: 6,
    code: 'dca',
    category: 'dca',
    available: false,
    name: { zh: 'DCA 定投', en: 'DCA' },
    description: { zh: '底仓加安全单分批买入，按均价止盈，可定时开单', en: 'A base order and scaled safety orders, take profit on the average, on a schedule if you like' },
  },
  { id: 4, code: 'arbitrage', category: 'arbitrage', available: false, name: { zh: '套利', en: 'Arbitrage' }, description: { zh: '捕捉价差', en: 'Captures price gaps' } },
  {
    id: 5,
    code: 'custom',
    category: 'custom',
    available: false,
    name: { zh: '自定义', en: 'Custom' },
    description: { zh: '用 RSI、均线、布林带、MACD 等条件组合买卖规则，无需编程', en: 'Your own buy and sell rules from RSI, moving averages, Bollinger bands, MACD and more, no code' },
  },
  {
    id: 7,
    code: 'dip',
    category: 'dca',
    available: false,
    name: { zh: '抄底', en: 'Buy the dip' },
    description: { zh: '在起始价下方设一条买入线，跌到即买入一次，到止盈价全部卖出', en: 'One buy at a line below the starting price, sold whole at its take profit' },
  },
];
const types: TypeEntry[] = entries.map((t) => ({ ...t, available: available(t.code) }));

/** A built strategy's short name, as the bot screens say it (马丁格尔 / Martingale, never "Martin"). */
const shortNames: Record<BuiltBotType, Text> = {
  martin: { zh: '马丁格尔', en: 'Martingale' },
  grid: { zh: '网格', en: 'Grid' },
  dca: { zh: 'DCA', en: 'DCA' },
  custom: { zh: '自定义', en: 'Custom' },
  dip: { zh: '抄底', en: 'Dip' },
};

/** A bot's name when the trader gives none: its pair and type in the language of the request that creates it ("BTC/USDT 马丁格尔"). */
export function defaultBotName(type: BuiltBotType, symbol: string, lang: Language): string {
  return `${symbol} ${shortNames[type][lang]}`;
}

/** The strategy types in a language. */
export function botTypes(lang: Language): BotType[] {
  return types.map((t) => ({ ...t, name: t.name[lang], description: t.description[lang] }));
}

interface TemplateEntry extends Omit<BotTemplate, 'name'> {
  name: Text;
}
const martinPresets = [
  { key: { zh: '稳健', en: 'Steady' }, multiplier: '1.5', maxPositions: 6, addTrigger: '3', takeProfit: '1.5' },
  { key: { zh: '均衡', en: 'Balanced' }, multiplier: '2', maxPositions: 5, addTrigger: '2', takeProfit: '1.2' },
  { key: { zh: '激进', en: 'Aggressive' }, multiplier: '2', maxPositions: 7, addTrigger: '1.5', takeProfit: '1' },
];
const templateSymbols = ['BTC/USDT', 'ETH/USDT', 'BNB/USDT', 'SOL/USDT'];
const templates: TemplateEntry[] = templateSymbols.flatMap((symbol, i) =>
  martinPresets.map((p, j) => ({
    id: i * martinPresets.length + j + 1,
    typeId: 1,
    symbol,
    name: { zh: `${symbol} ${p.key.zh}`, en: `${symbol} ${p.key.en}` },
    params: { firstOrder: '10', multiplier: p.multiplier, maxPositions: p.maxPositions, addTrigger: p.addTrigger, takeProfit: p.takeProfit, repeat: true },
  })),
);

/** Ready-made parameter sets of a type (all types when none is given), one page of them. */
export function typeTemplates(lang: Language, typeId: number | undefined, page: number, pageSize: number) {
  const all = templates.filter((t) => typeId === undefined || t.typeId === typeId);
  const list = all.slice((page - 1) * pageSize, page * pageSize).map((t) => ({ ...t, name: t.name[lang] }));
  return { list, total: all.length, page, page_size: pageSize };
}
