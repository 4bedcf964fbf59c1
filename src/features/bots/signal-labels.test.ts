import { describe, expect, it } from 'vitest';
import { setupI18n } from '@lingui/core';
import type { BotAction } from '../../../contract/bots.ts';
import { actionDetail, actionTitle } from './labels.ts';

const zh = setupI18n({ locale: 'zh', messages: { zh: {} } });
const line = (detail: Record<string, string>): BotAction => ({ id: '1', botId: '7', kind: 'signal', detail, at: '2026-11-24T00:00:00Z' });

/** A webhook signal's log line: its action, id and what became of it, in words. */
describe('signal log lines', () => {
  it('say the action, the alert id and the result; a refused body its problem', () => {
    expect(actionTitle(line({}), zh)).toBe('外部信号');
    expect(actionDetail(line({ action: 'buy', id: 'BTCUSDT-1', price: '60000', result: 'placed' }), zh)).toBe('买入 BTCUSDT-1：已下单');
    expect(actionDetail(line({ action: 'close', id: 'x', result: 'nothing' }), zh)).toBe('平仓 x：无需操作');
    expect(actionDetail(line({ action: 'sell', id: 'y', result: 'ignored', status: 'paused' }), zh)).toBe('卖出 y：已忽略（策略未运行）');
    expect(actionDetail(line({ result: 'refused', reason: 'action: invalid_value' }), zh)).toBe('信号内容无效，已拒绝（action: invalid_value）');
  });
});
