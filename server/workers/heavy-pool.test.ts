import { afterAll, describe, expect, it } from 'vitest';
import { paperMarket } from '../exchanges/paper-fill.ts';
import { AppError } from '../errors.ts';
import { marketStrings, type SearchJob } from './heavy-jobs.ts';
import { defaultHeavyOptions, HeavyPool } from './heavy-pool.ts';

const NOW = Date.UTC(2026, 10, 1);
const search = (days: number): SearchJob => ({
  kind: 'search',
  investment: '1000',
  risk: 'balanced',
  market: marketStrings(paperMarket('ETH/USDT', '0.01', '0.0001')),
  history: { simulated: { seed: 56, symbol: 'ETH/USDT', fromMs: NOW - days * 86_400_000, toMs: NOW } },
  recent: 720,
  part: { index: 0, of: 1 },
});

/** The heavy-work pool's deadlines: a task past its kind's deadline is stopped (its thread ended) and refused in words; the pool goes on. */
describe('the heavy-work pool', () => {
  const pool = new HeavyPool({ ...defaultHeavyOptions(), threads: 1, deadlineMs: { search: 300, backtest: 60_000, warmUp: 60_000 } });
  afterAll(() => pool.close());

  it('stops a task past its deadline, refuses it with the seconds, and runs the next one', async () => {
    const asked = performance.now();
    const late = await pool.run('a', search(30)).then(
      () => null,
      (e: unknown) => e,
    );
    expect(late).toBeInstanceOf(AppError);
    expect(late).toMatchObject({ codeName: 'BacktestTimedOut', options: { values: { seconds: 1 } } });
    // Stopped at the deadline, not when the search would have ended (seconds later).
    expect(performance.now() - asked).toBeLessThan(3000);
    expect(pool.load).toEqual({ running: 0, waiting: 0 });
    // A fresh thread takes the next task (of a kind with a longer deadline).
    const report = await pool.run<{ candles: number }>('a', {
      kind: 'backtest',
      type: 'martin',
      params: { investment: '1000', firstOrder: '100', multiplier: '2', maxPositions: 3, addTrigger: '2', takeProfit: '1', repeat: true },
      market: marketStrings(paperMarket('ETH/USDT', '0.01', '0.0001')),
      candles: { simulated: { seed: 56, symbol: 'ETH/USDT', fromMs: NOW - 86_400_000, toMs: NOW } },
      slippage: '0',
    });
    expect(report.candles).toBe(1440);
  });
});
