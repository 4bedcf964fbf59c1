import { msg } from '@lingui/core/macro';
import type { I18n, MessageDescriptor } from '@lingui/core';
import { isStable, num, profit, signed, usdt } from '../../shared/format.ts';
import type { ActionKind, BotAction, BotOrder, BotSignal, BotStatus, BatchOperation } from '../../../contract/bots.ts';
import { pauseText, refusalText } from '../../shared/refusal-words.ts';
import { botTypeList, botTypes } from '../../shared/bot-types.ts';

export const statusLabels: Record<BotStatus, MessageDescriptor> = {
  running: msg`运行中`,
  paused: msg`已暂停`,
  stopped: msg`已停止`,
};

/** An AI bot's risk level, as the AI screen names it. */
export const riskLabels = {
  conservative: msg`稳健`,
  balanced: msg`平衡`,
  aggressive: msg`进取`,
} as const satisfies Record<string, MessageDescriptor>;

/**
 * How a bot is titled: its pair and its name, the pair once ("BTC/USDT · 马丁格尔", not "BTC/USDT ·
 * BTC/USDT 马丁格尔"). A name the server gave (the pair and the type) shows the type in the UI
 * language, whatever the language it was made in; a name the trader chose shows as chosen.
 */
export function botTitle(symbol: string, name: string, i18n: I18n): string {
  const rest = name.startsWith(`${symbol} `) ? name.slice(symbol.length + 1) : name.endsWith(` ${symbol}`) ? name.slice(0, -symbol.length - 1) : name;
  const type = botTypeList.find((t) => botTypes[t].serverNames.includes(rest));
  if (type) return `${symbol} · ${i18n._(botTypes[type].name)}`;
  return rest === symbol || rest.trim() === '' ? symbol : `${symbol} · ${rest}`;
}

export const operationLabels: Record<BatchOperation | 'add' | 'close', MessageDescriptor> = {
  start: msg`启动`,
  stop: msg`停止`,
  pause: msg`暂停`,
  resume: msg`恢复`,
  delete: msg`删除`,
  add: msg`补仓`,
  close: msg`平仓`,
};

export const actionLabels: Record<ActionKind, MessageDescriptor> = {
  manual: msg`手动指令`,
  success: msg`止盈完成`,
  failed: msg`下单失败`,
  close: msg`止盈平仓`,
  manual_close: msg`手动平仓`,
  open: msg`开仓`,
  pause: msg`暂停`,
  start: msg`启动`,
  add: msg`补仓`,
  manual_add: msg`手动补仓`,
  create: msg`创建`,
  update: msg`修改参数`,
  delete: msg`删除`,
  stop: msg`停止`,
  resume: msg`恢复`,
  trailing_armed: msg`追踪止盈启动`,
  trailing_fired: msg`追踪触发`,
  signal: msg`外部信号`,
};

/** What became of a signal: the signals list and the action log's `signal` lines. */
export const signalStatusLabels: Record<BotSignal['status'], MessageDescriptor> = {
  received: msg`处理中`,
  placed: msg`已下单`,
  nothing: msg`无需操作`,
  ignored: msg`已忽略（策略未运行）`,
  refused: msg`已拒绝（内容无效）`,
  busy: msg`忙碌，未执行`,
  expired: msg`超时，未执行`,
  error: msg`出错，未执行`,
};
export const signalActionLabels: Record<NonNullable<BotSignal['action']>, MessageDescriptor> = { buy: msg`买入`, sell: msg`卖出`, close: msg`平仓` };

export const orderReasonLabels: Record<BotOrder['reason'], MessageDescriptor> = {
  open: msg`开仓`,
  add: msg`补仓`,
  manual_add: msg`手动补仓`,
  close: msg`止盈平仓`,
  stop: msg`止损平仓`,
  manual_close: msg`手动平仓`,
  signal_close: msg`信号平仓`,
  exit_rule: msg`按规则卖出`,
};

/** How a finished cycle is named: by how it ended (take profit, stop loss, manual close), never a take profit for a loss. */
const endLabels: Record<string, MessageDescriptor> = {
  take_profit: msg`止盈完成`,
  stop_loss: msg`止损完成`,
  manual_close: msg`手动平仓完成`,
  exit_rule: msg`按规则卖出完成`,
  signal: msg`信号平仓完成`,
};

/** A log line's title: what happened, in the bot type's own words where it has them (`own`: a DCA deal's base and safety orders, strategies/<type>). */
export function actionTitle(a: BotAction, i18n: I18n, own?: Partial<Record<ActionKind, MessageDescriptor>>): string {
  const word = own?.[a.kind];
  if (word) return i18n._(word);
  if (a.kind === 'success') return i18n._(endLabels[a.detail.how ?? ''] ?? msg`本轮结束`);
  if (a.kind === 'close' && a.detail.stopLoss) return i18n._(msg`止损平仓`);
  // A custom bot's sell rule held: no take profit.
  if (a.kind === 'close' && a.detail.reason === 'exit_rule') return i18n._(msg`按规则卖出`);
  // A sell or close signal from the webhook: closed by the signal, not by hand.
  if (a.kind === 'close' && a.detail.reason === 'signal_close') return i18n._(msg`信号平仓`);
  if (a.kind === 'trailing_fired') return i18n._(a.detail.exit === 'stop_loss' ? msg`追踪止损触发` : msg`追踪止盈触发`);
  // A partial close names its share: 手动平仓 50% / Manual close 50%.
  if (a.kind === 'manual_close' && a.detail.share) {
    const share = a.detail.share;
    return i18n._(msg`手动平仓 ${share}%`);
  }
  return i18n._(actionLabels[a.kind]);
}

/** A log line's colour: a finished cycle or a partial close by the sign of its profit, a refused order as a loss. */
export function actionTone(a: BotAction): 'up' | 'down' | undefined {
  if (a.kind === 'failed') return 'down';
  if (a.kind !== 'success' && !(a.kind === 'manual_close' && a.detail.share)) return undefined;
  const profit = Number(a.detail.profit ?? 0);
  return profit > 0 ? 'up' : profit < 0 ? 'down' : undefined;
}

/** The base coin of a pair ("BTC" of "BTC/USDT"). */
export function baseCoin(symbol: string): string {
  return symbol.split('/')[0] ?? symbol;
}

/** One line of detail for an action, from its figures (the log stores numbers, the screen words them). */
export function actionDetail(action: BotAction, i18n: I18n, bot: { symbol?: string; exchangeName?: (code: string) => string } = {}): string {
  const raw = action.detail;
  const l = i18n.locale;
  // With the bot's pair known, each figure carries its unit: the amount the base coin, the money the quote.
  const [base, quote] = bot.symbol?.split('/') ?? [];
  const unit = (figure: string | undefined, coin: string | undefined) => (figure && coin ? `${figure} ${coin}` : figure);
  // Prices and amounts are already at the market's precision: only grouped here (63,915.09). Money in a
  // stable coin at 2 places as everywhere ("79.89 USDT"); in another quote, or with no pair known, to 4.
  const stable = quote !== undefined && isStable(quote);
  const d: Record<string, string | undefined> = {
    ...raw,
    amount: unit(raw.amount && num(raw.amount, l, 12), base),
    price: raw.price && num(raw.price, l, 12),
    high: raw.high && num(raw.high, l, 12),
    cost: unit(raw.cost && (stable ? usdt(raw.cost, l) : num(raw.cost, l, 4)), quote),
    profit: unit(raw.profit && (stable ? profit(raw.profit, l) : signed(raw.profit, l, 4)), quote),
  };
  switch (action.kind) {
    case 'open':
    case 'add':
    case 'manual_add':
      return i18n._(msg`买入 ${d.amount ?? ''} @ ${d.price ?? ''}，花费 ${d.cost ?? ''}`);
    case 'close':
    case 'manual_close':
      if (d.share) return i18n._(msg`卖出 ${d.amount ?? ''} @ ${d.price ?? ''}，收入 ${d.cost ?? ''}，收益 ${d.profit ?? ''}`);
      return d.stopLoss ? i18n._(msg`止损卖出 ${d.amount ?? ''} @ ${d.price ?? ''}`) : i18n._(msg`卖出 ${d.amount ?? ''} @ ${d.price ?? ''}，收入 ${d.cost ?? ''}`);
    case 'success':
      return i18n._(msg`第 ${d.cycle ?? ''} 轮结束，收益 ${d.profit ?? ''}`);
    case 'failed':
      return i18n._(msg`订单被拒绝：${refusalText(raw.message ?? '', i18n)}`);
    case 'manual':
      if (d.command === 'close' && d.share) return i18n._(msg`手动平仓 ${d.share}%，价格 ${d.price ?? ''}`);
      return d.command === 'close' ? i18n._(msg`手动平仓，价格 ${d.price ?? ''}`) : i18n._(msg`手动补仓，价格 ${d.price ?? ''}`);
    case 'pause':
      return raw.reason ? i18n._(msg`原因：${pauseText(raw.reason, i18n)}`) : '';
    case 'trailing_armed':
      if (d.exit === 'stop_loss') return '';
      return i18n._(msg`价格 ${d.high ?? ''} 达到止盈价，跟踪最高价；回落至 ${d.price ?? ''} 卖出`);
    case 'trailing_fired':
      return i18n._(msg`最高价 ${d.high ?? ''}，回落至 ${d.price ?? ''}：卖出`);
    case 'signal': {
      // A webhook's signal: its action and id, and what became of it.
      const action = raw.action && raw.action in signalActionLabels ? i18n._(signalActionLabels[raw.action as 'buy']) : '';
      const result = raw.result && raw.result in signalStatusLabels ? i18n._(signalStatusLabels[raw.result as 'placed']) : (raw.result ?? '');
      if (raw.result === 'refused') return i18n._(msg`信号内容无效，已拒绝（${raw.reason ?? ''}）`);
      return `${action} ${raw.id ?? ''}：${result}`.trim();
    }
    case 'create':
      return `${d.exchange && bot.exchangeName ? bot.exchangeName(d.exchange) : (d.exchange ?? '')} ${d.symbol ?? ''}`.trim();
    default:
      return '';
  }
}
