import type { BuiltBotType } from '../../contract/bots.ts';
import type { BacktestAnswer } from '../../contract/strategy.ts';
import type { BacktestReport } from '../../strategy/backtest-report.ts';
import { kitOf } from '../../strategy/kit.ts';
import { columnsOf, DEFAULT_SLIPPAGE, type CandleColumns } from '../../strategy/backtest.ts';
import { exchangeById } from '../exchanges/catalog.ts';
import type { Timeframe } from '../market/symbols.ts';
import { historyBefore } from '../market/custom-history.ts';
import { GENESIS_MS, isPlainSimulation } from '../market/simulated.ts';
import type { MarketData } from '../trading.ts';
import { marketStrings, type BacktestJob } from '../workers/heavy-jobs.ts';
import { heavyPool } from '../workers/heavy-pool.ts';
import { checkBotParams, storedParams } from './bots.ts';
import { fail } from '../errors.ts';

/**
 * A backtest before the bot is saved: the same strategy code on the recent history of the
 * symbol. Paper replays its own market minute by minute; a live exchange answers one page of candles,
 * so the window sets the candle size (7 days: 15 m, 30 days: 1 h, 90 days: 4 h). Orders fill at their
 * trigger price (the candle's open when it opened past it) with the asked slippage, 0.05 % by default.
 */
const liveTimeframe: Record<number, Timeframe> = { 7: '15m', 30: '1h', 90: '4h' };
const minutesOf: Record<string, number> = { '15m': 15, '1h': 60, '4h': 240 };
const DAY = 86_400_000;

export async function backtest(
  trading: MarketData,
  owner: string,
  input: { exchangeId: number; symbol: string; days: 7 | 30 | 90; slippage?: string | undefined; type: BuiltBotType; params: unknown },
): Promise<BacktestAnswer> {
  const exchange = exchangeById(input.exchangeId);
  if (!exchange) throw fail('ApiExchangeUnsupported');
  const params = storedParams(input.type, input.params);
  await checkBotParams({ trading }, input.type, exchange.code, input.symbol, params);
  const market = await trading.market(exchange.code, input.symbol);
  const now = trading.now();
  // A custom bot's rules, or a DCA bot's indicator start read as a custom bot's entry rule: their indicators need a warm-up.
  const rules = kitOf(input.type).indicators?.rules(params) ?? null;
  const transfer: ArrayBufferLike[] = [];
  let timeframe = '1m';
  let source: Pick<BacktestJob, 'candles' | 'warmUp' | 'warmUpFrom'>;
  if (exchange.code === 'paper' && isPlainSimulation(trading.feed)) {
    // The simulated market's minutes (and any warm-up before them) are made in the worker from its seed.
    const from = now - input.days * DAY;
    const start = Math.max(GENESIS_MS, from - ((from - GENESIS_MS) % 60_000));
    if (Math.floor((now - start) / 60_000) <= 0) throw fail('OrderInvalidPair');
    const { seed } = trading.feed;
    source = {
      candles: { simulated: { seed, symbol: input.symbol, fromMs: from, toMs: now } },
      ...(rules ? { warmUpFrom: { seed, symbol: input.symbol, rules: { entry: rules.entry, exit: 'exit' in rules ? rules.exit : undefined } } } : {}),
    };
  } else {
    let candles: CandleColumns & { time: Float64Array };
    if (exchange.code === 'paper') {
      candles = trading.feed.minuteColumns(input.symbol, now - input.days * DAY, now);
    } else if (rules) {
      // A custom bot's rules (a DCA bot's indicator start) are checked on 1-minute candles: one page of them from a live exchange (often 1,000 minutes).
      candles = columnsOf(await trading.candles(exchange.code, input.symbol, '1m', input.days * 1440));
      // The minute still forming is not a candle yet.
      if (candles.close.length > 0 && candles.time[candles.time.length - 1]! + 60_000 > now) candles = sliceColumns(candles, candles.close.length - 1);
    } else {
      timeframe = liveTimeframe[input.days]!;
      const rows = await trading.candles(exchange.code, input.symbol, timeframe as Timeframe, Math.ceil((input.days * 1440) / minutesOf[timeframe]!));
      candles = columnsOf(rows);
    }
    if (candles.close.length === 0) throw fail('OrderInvalidPair');
    const { time, open, high, low, close } = candles;
    source = {
      candles: { columns: { time, open, high, low, close } },
      ...(rules ? { warmUp: await historyBefore(rules, trading.history(exchange.code, input.symbol), time[0]!) } : {}),
    };
    transfer.push(...[time, open, high, low, close].map((c) => c.buffer));
  }
  // Its orders rest on the book, as the engine would rest them (RESTING_ORDERS), for a type that can.
  const resting = trading.restingTypes.includes(input.type);
  const job: BacktestJob = { kind: 'backtest', type: input.type, params, market: marketStrings(market), slippage: input.slippage ?? DEFAULT_SLIPPAGE, resting, ...source };
  const report = await heavyPool().run<BacktestReport>(owner, job, { transfer });
  const fill = { ...report.fill, resting: report.fill.resting ? [input.type] : [] };
  return { ...report, fill, exchange: exchange.code, symbol: input.symbol, days: input.days, timeframe };
}

/** The first `n` candles of columns. */
function sliceColumns(c: CandleColumns & { time: Float64Array }, n: number): CandleColumns & { time: Float64Array } {
  return { time: c.time.slice(0, n), open: c.open.slice(0, n), high: c.high.slice(0, n), low: c.low.slice(0, n), close: c.close.slice(0, n) };
}
