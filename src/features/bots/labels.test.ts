import { afterEach, describe, expect, it } from 'vitest';
import { i18n, setupI18n, type I18n, type MessageDescriptor } from '@lingui/core';
import type { BotAction, BuiltBotType } from '../../../contract/bots.ts';
import { actionDetail, actionTitle, actionTone, botTitle } from './labels.ts';
import { strategies } from './strategies/index.ts';

/** A type's own words for its log lines, as the action list passes them. */
const titles = (type: BuiltBotType) => strategies[type].logTitles;

/** The source (zh) text of a descriptor, as an i18n with no catalog shows it. */
const zh = { _: (d: MessageDescriptor) => d.message ?? d.id } as unknown as I18n;
const line = (kind: BotAction['kind'], detail: Record<string, string>): BotAction => ({ id: '1', botId: '7', kind, detail, at: '2026-11-23T00:00:00Z' });

/** A finished cycle is named by how it ended and coloured by the sign of its profit. */
describe('bot log lines', () => {
  it('names the orders of a DCA bot: its base order and its safety orders', () => {
    expect(actionTitle(line('open', {}), zh, titles('dca'))).toBe('底仓买入');
    expect(actionTitle(line('add', {}), zh, titles('dca'))).toBe('安全单买入');
    expect(actionTitle(line('add', {}), zh, titles('martin'))).toBe('补仓');
    expect(actionTitle(line('close', {}), zh, titles('dca'))).toBe('止盈平仓');
  });
  it("names a custom bot's sale by its sell rule as such, never a take profit", () => {
    expect(actionTitle(line('close', { reason: 'exit_rule', amount: '0.00172', price: '61500', cost: '105.68' }), zh, titles('custom'))).toBe('按规则卖出');
    expect(actionTitle(line('close', { reason: 'close' }), zh, titles('custom'))).toBe('止盈平仓');
    expect(actionTitle(line('close', { reason: 'stop', stopLoss: '1' }), zh, titles('custom'))).toBe('止损平仓');
    const end = line('success', { cycle: '1', profit: '5.2', how: 'exit_rule' });
    expect(actionTitle(end, zh)).toBe('按规则卖出完成');
    expect(actionTone(end)).toBe('up');
    expect(actionDetail(line('close', { reason: 'exit_rule', amount: '0.00172', price: '61500', cost: '105.68' }), setupI18n({ locale: 'zh', messages: { zh: {} } }), { symbol: 'BTC/USDT' })).toBe(
      '卖出 0.00172 BTC @ 61,500，收入 105.68 USDT',
    );
  });
  it('names a manual close at a loss as a manual close, in red, never a green take profit', () => {
    const loss = line('success', { cycle: '3', profit: '-0.091', how: 'manual_close' });
    expect(actionTitle(loss, zh)).toBe('手动平仓完成');
    expect(actionTone(loss)).toBe('down');
  });
  it('names a partial close by its share and colours it by the sign of its profit', () => {
    const half = line('manual_close', { share: '50', amount: '0.00099', price: '51000', cost: '50.49', profit: '0.88996045' });
    expect(actionTitle(half, setupI18n({ locale: 'zh', messages: { zh: {} } }))).toBe('手动平仓 50%');
    expect(actionTone(half)).toBe('up');
    expect(actionTone(line('manual_close', { share: '25', profit: '-0.04' }))).toBe('down');
    // The full close's sale line stays as it was: no share, no colour (its cycle's end line carries the profit).
    expect(actionTitle(line('manual_close', { amount: '0.00199', price: '51000' }), zh)).toBe('手动平仓');
    expect(actionTone(line('manual_close', { amount: '0.00199', price: '51000' }))).toBeUndefined();
  });
  it('names a trailing exit armed and fired, with its high and line', () => {
    const zh = setupI18n({ locale: 'zh', messages: { zh: {} } });
    const armed = line('trailing_armed', { exit: 'take_profit', high: '60900', price: '60595.5' });
    expect(actionTitle(armed, zh)).toBe('追踪止盈启动');
    expect(actionDetail(armed, zh)).toBe('价格 60,900 达到止盈价，跟踪最高价；回落至 60,595.5 卖出');
    const fired = line('trailing_fired', { exit: 'take_profit', high: '61500', price: '61192.5' });
    expect(actionTitle(fired, zh)).toBe('追踪止盈触发');
    expect(actionDetail(fired, zh)).toBe('最高价 61,500，回落至 61,192.5：卖出');
    expect(actionTitle(line('trailing_fired', { exit: 'stop_loss', high: '61000', price: '59780' }), zh)).toBe('追踪止损触发');
  });
  it('names take profits and stop losses, and colours by sign', () => {
    expect(actionTitle(line('success', { profit: '2.86', how: 'take_profit' }), zh)).toBe('止盈完成');
    expect(actionTone(line('success', { profit: '2.86', how: 'take_profit' }))).toBe('up');
    expect(actionTitle(line('success', { profit: '-1.2', how: 'stop_loss' }), zh)).toBe('止损完成');
    expect(actionTitle(line('close', { stopLoss: '1', price: '1' }), zh)).toBe('止损平仓');
    expect(actionTone(line('success', { profit: '0' }))).toBeUndefined();
    expect(actionTitle(line('success', { profit: '-1' }), zh)).toBe('本轮结束'); // older lines, before `how` was logged
    expect(actionTone(line('failed', {}))).toBe('down');
  });
  it("gives each figure of a line its unit when the bot's pair is known, and groups prices (every figure has its unit)", () => {
    const zh = setupI18n({ locale: 'zh', messages: { zh: {} } });
    const buy = line('add', { amount: '0.00125', price: '63915.09', cost: '79.89387500' });
    expect(actionDetail(buy, zh, { symbol: 'BTC/USDT' })).toBe('买入 0.00125 BTC @ 63,915.09，花费 79.89 USDT');
    expect(actionDetail(line('success', { cycle: '6', profit: '0.0109', how: 'take_profit' }), zh, { symbol: 'BTC/USDT' })).toBe('第 6 轮结束，收益 +0.01 USDT');
    // A price keeps every decimal the market gives it (DOGE at 0.00001).
    expect(actionDetail(line('manual', { command: 'close', price: '0.28773' }), zh, { symbol: 'DOGE/USDT' })).toBe('手动平仓，价格 0.28773');
    // Without the pair: the figures alone.
    expect(actionDetail(buy, zh)).toBe('买入 0.00125 @ 63,915.09，花费 79.8939');
    // A bot's creation names its exchange in the UI language, never the code 'paper'.
    expect(actionDetail(line('create', { exchange: 'paper', symbol: 'ETH/USDT' }), zh, { exchangeName: (code) => (code === 'paper' ? '模拟盘' : code) })).toBe('模拟盘 ETH/USDT');
  });
});

/** A bot the server named shows its type in the UI language, and its pair once. */
describe('bot titles', () => {
  const zhI18n = setupI18n({ locale: 'zh', messages: { zh: {} } });
  afterEach(() => i18n.activate('zh'));

  it('shows a default name as the pair and the type in the UI language, whatever language or version made it', () => {
    for (const name of ['BTC/USDT Martin', 'BTC/USDT Martingale', 'BTC/USDT 马丁格尔']) expect(botTitle('BTC/USDT', name, zhI18n)).toBe('BTC/USDT · 马丁格尔');
    for (const name of ['ETH/USDT Grid', 'ETH/USDT 网格']) expect(botTitle('ETH/USDT', name, zhI18n)).toBe('ETH/USDT · 网格');
    i18n.activate('en');
    expect(botTitle('BTC/USDT', 'BTC/USDT 马丁格尔', i18n)).toBe('BTC/USDT · Martingale');
    expect(botTitle('BTC/USDT', 'BTC/USDT 网格', i18n)).toBe('BTC/USDT · Grid');
  });

  it('keeps a name the trader chose, with the pair once', () => {
    expect(botTitle('BTC/USDT', 'E2E 马丁', zhI18n)).toBe('BTC/USDT · E2E 马丁');
    expect(botTitle('BTC/USDT', 'AI BTC/USDT', zhI18n)).toBe('BTC/USDT · AI');
    expect(botTitle('BTC/USDT', 'BTC/USDT dip buyer', zhI18n)).toBe('BTC/USDT · dip buyer');
    expect(botTitle('BTC/USDT', 'BTC/USDT', zhI18n)).toBe('BTC/USDT');
    expect(botTitle('BTC/USDT', 'Martin', zhI18n)).toBe('BTC/USDT · 马丁格尔');
  });
});
