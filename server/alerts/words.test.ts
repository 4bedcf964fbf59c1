import { describe, expect, it } from 'vitest';
import { planOf, wordsOf } from './words.ts';

describe('alert words', () => {
  it('pushes a grid at an edge of its range as a cycle alert, worded in either language, opening the bot', () => {
    const plan = planOf({ id: '7', at: '2026-11-28T10:00:00.000Z', kind: 'notice', notice: '12', level: 'warning', code: 'range_edge', bot: '3' });
    expect(plan).toMatchObject({ kind: 'cycles', topic: 'notice:12', data: { code: 'range_edge', bot: '3' } });
    const bot = { name: 'Range', symbol: 'ETH/USDT' };
    expect(wordsOf(plan!.kind, plan!.data, 1, 'zh', bot)).toEqual({ title: 'Range · ETH/USDT', body: '价格已到网格区间边缘，这一方向不再交易', path: '/strategy/detail/3' });
    expect(wordsOf(plan!.kind, plan!.data, 1, 'en', bot).body).toBe('At an edge of its grid range: no more trades that way');
    // A notice of no alert kind (an AI bot's new parameters, on screen only) pushes nothing.
    expect(planOf({ id: '8', at: '2026-11-28T10:00:00.000Z', kind: 'notice', notice: '13', level: 'notice', code: 'bot_retuned', bot: '3' })).toBeNull();
  });
});
