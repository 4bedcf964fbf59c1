import { msg } from '@lingui/core/macro';
import type { I18n, MessageDescriptor } from '@lingui/core';
import { API_KEY_REFUSED, refusalKind, type RefusalKind } from '../../contract/refusals.ts';

const words: Record<Exclude<RefusalKind, 'other'>, MessageDescriptor> = {
  funds: msg`账户余额不足`,
  size: msg`订单金额低于交易所的最小下单额`,
  key: msg`API 密钥被交易所拒绝`,
  pair: msg`交易所不支持该交易对或已暂停交易`,
};

/**
 * An exchange's refusal of an order in the trader's language: its kind worded here; the
 * exchange's own words only for a refusal of no known kind, quoted after 交易所拒绝 / Refused by the exchange.
 */
export function refusalText(reason: string, i18n: I18n): string {
  const kind = refusalKind(reason);
  if (kind !== 'other') return i18n._(words[kind]);
  const said = reason.startsWith(API_KEY_REFUSED) ? reason.slice(API_KEY_REFUSED.length) : reason;
  return i18n._(msg`交易所拒绝：${said}`);
}

/** Why the engine paused a bot (its `error`, a pause log line): out of fuel, an order its exchange lost, or an exchange's refusal. */
export function pauseText(reason: string, i18n: I18n): string {
  if (reason === 'fuel') return i18n._(msg`燃料已用完`);
  if (reason === 'order_lost') return i18n._(msg`交易所查不到已发出的订单`);
  if (reason === 'balance_short') return i18n._(msg`交易所账户里的币少于策略的持仓`);
  if (reason === 'fill_unbooked') return i18n._(msg`交易所的一笔成交与策略账目对不上`);
  return refusalText(reason, i18n);
}
