import type { CustomParamsInput, DcaParamsInput, GridParamsInput, MartinParamsInput } from '../../contract/bots.ts';
import { warmUpCandles } from '../../strategy/custom/feed.ts';
import type { CustomParams } from '../../strategy/custom/rules.ts';
import type { CustomView } from '../../strategy/custom/strategy.ts';
import { customKit, kitOf } from '../../strategy/kit.ts';
import { paperHistory } from '../market/custom-history.ts';
import type { Timeframe } from '../market/symbols.ts';
import { money } from '../../strategy/money.ts';
import { SimulatedMarket } from '../market/simulated.ts';
import { storedParams } from '../services/bots.ts';
import { openTestApp, registerPayload } from './test-support.ts';
import { createTrading, type Trading } from '../trading.ts';

/** A bot as botCreate takes it. */
export type ParityBot =
  | { type: 'martin'; params: MartinParamsInput }
  | { type: 'grid'; params: GridParamsInput }
  | { type: 'dca'; params: DcaParamsInput }
  | { type: 'custom'; params: CustomParamsInput };

export interface ParityFigures {
  realized: string;
  cycles: number;
  fills: number;
}

export interface ParityRow {
  bot: ParityBot;
  live: ParityFigures;
  backtest: ParityFigures;
  /** (backtest - live) / |live| x 100; NaN when live realised nothing. */
  gapPct: number;
}

/**
 * A custom bot of the parity checks: 50 USDT an entry when RSI(6) on 1-minute candles is under 30, out
 * when it crosses above 70, take profit 0.4 %, stop 0.6 % (`extra`: trailing exits), again and again.
 */
export function customParityBot(extra: object): ParityBot {
  const rsi = { kind: 'rsi', period: 6, timeframe: '1m' } as const;
  return {
    type: 'custom',
    params: {
      investment: '500',
      size: { kind: 'fixed', quote: '50' },
      entry: { join: 'and', conditions: [{ left: rsi, op: '<', right: { kind: 'value', value: '30' } }] },
      exit: { join: 'or', conditions: [{ left: rsi, op: 'crossesAbove', right: { kind: 'value', value: '70' } }] },
      takeProfit: '0.4',
      stopLoss: '0.6',
      repeat: true,
      ...extra,
    },
  } as ParityBot;
}

/**
 * The parity check against the live engine, not the candles' four prices: the engine
 * (the runner, the price book, the Paper venue, the books in a PGlite database) is driven by the
 * simulated market's own second-by-second prices, one price round per second of market time (what
 * `ENGINE_TICK_MS` 1000 does live), each order filled by Paper at the price of its second; every bot is
 * backtested with no slippage (Paper has none) on the same minutes as the product's backtest reads them
 * (SimulatedMarket.minuteColumns: their candles, and their path: each minute's order of low and high and
 * the price a second after a trigger, where a cycle re-opens). Each bot has its own trader
 * (10,000 USDT of Paper); the fuel fee is 0, so no bot pauses for fuel on a long run.
 */
export async function secondsParity(options: {
  symbol: string;
  from: number;
  seconds: number;
  bots: readonly ParityBot[];
  /** The bot types whose orders rest on the book (the engine's RESTING_ORDERS, the backtest's FillModel.resting); none by default. */
  resting?: readonly string[];
}): Promise<{ rows: ParityRow[]; candles: number; ms: number }> {
  const started = performance.now();
  const { symbol, from, seconds, bots, resting = [] } = options;
  const feed = new SimulatedMarket();
  let clock = from;
  let trading: Trading | undefined;
  const t = await openTestApp('pglite', { trading: (db) => (trading = createTrading({ db, feed, now: () => clock, fuelFeeRate: '0', restingTypes: resting })) });
  try {
    const engine = trading!.engine;
    const ids: string[] = [];
    for (const bot of bots) {
      const r = await t.app.inject({ method: 'POST', url: '/api/login/register', payload: await registerPayload(t.app) });
      const headers = { authorization: `Bearer ${r.json().data.token}` };
      const call = (method: 'GET' | 'POST', url: string, payload?: object) => t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) }).then((x) => x.json());
      await call('POST', '/api/exchanges/bind', { exchangeId: 1, apiKey: 'paperkey01', secretKey: 'papersecret01' });
      const created = await call('POST', '/api/user/botCreate', { type: bot.type, exchangeId: 1, symbol, params: bot.params });
      if (created.code !== 1) throw new Error(`bot not created: ${JSON.stringify(created)}`);
      const started = await call('GET', `/api/user/botOperation?id=${created.data.id}&action=start`);
      if (started.code !== 1) throw new Error(`bot not started: ${JSON.stringify(started)}`);
      ids.push(String(created.data.id));
    }
    // Started at second 0 (each opened at its price); then one price round per second.
    await engine.idle();
    for (let s = 1; s < seconds; s++) {
      clock = from + s * 1000;
      await engine.tick();
      await engine.idle();
    }
    const candles = feed.minuteColumns(symbol, from, from + seconds * 1000);
    const market = await trading!.market('paper', symbol);
    const rows: ParityRow[] = [];
    for (const [i, bot] of bots.entries()) {
      const id = ids[i]!;
      const row = await t.db.selectFrom('bots').select(['realized', 'status']).where('id', '=', id).executeTakeFirstOrThrow();
      if (row.status !== 'running') throw new Error(`bot ${id} stopped running: ${row.status}`);
      const cycles = await t.db
        .selectFrom('bot_cycles')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('bot_id', '=', id)
        .executeTakeFirstOrThrow();
      const fills = await t.db
        .selectFrom('bot_orders')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('bot_id', '=', id)
        .where('status', '=', 'filled')
        .executeTakeFirstOrThrow();
      const live = { realized: money(row.realized).toFixed(), cycles: Number(cycles.n), fills: Number(fills.n) };
      const params = storedParams(bot.type, bot.params);
      // Every type's backtest is its kit's (the one walker); a custom bot's reads the minute before and its warm-up too.
      const run =
        bot.type === 'custom'
          ? await customBacktest(feed, symbol, from, seconds, { market, params: params as CustomParams })
          : kitOf(bot.type).backtest({ market, params }, candles, { slippage: '0', resting: resting.includes(bot.type) });
      const backtest = { realized: money(run.realized).toFixed(), cycles: run.cycles, fills: run.fills.length };
      const l = Number(live.realized);
      rows.push({ bot, live, backtest, gapPct: l === 0 ? Number.NaN : ((Number(backtest.realized) - l) / Math.abs(l)) * 100 });
    }
    return { rows, candles: candles.open.length, ms: performance.now() - started };
  } finally {
    await trading?.engine.stop();
    await t.close();
  }
}

/**
 * A custom bot's backtest on the same seconds: from the minute before the start, whose close the engine
 * checks the rules at on its first price, warmed up with what the engine read at the start (the closed
 * candles of the rules' timeframes before that minute).
 */
async function customBacktest(feed: SimulatedMarket, symbol: string, from: number, seconds: number, view: CustomView) {
  const candles = feed.minuteColumns(symbol, from - 60_000, from + seconds * 1000);
  const history = paperHistory(feed, symbol);
  const warmUp: Record<string, Awaited<ReturnType<typeof history>>> = {};
  for (const [tf, n] of Object.entries(warmUpCandles(view.params))) warmUp[tf] = await history(tf as Timeframe, from - 60_000, n);
  return customKit.backtest(view, candles, { slippage: '0' }, warmUp);
}
