import type { CustomParamsInput, DcaParamsInput, GridParamsInput, MartinParamsInput } from '../../contract/bots.ts';
import type { BacktestAnswer } from '../../contract/schemas.ts';
import type { BacktestReport } from '../../strategy/backtest-report.ts';
import { warmUpCandles, type Candle } from '../../strategy/custom/feed.ts';
import type { CustomParams, Timeframe as RuleTimeframe } from '../../strategy/custom/rules.ts';
import type { DcaParams } from '../../strategy/dca/rules.ts';
import { startRules } from '../../strategy/dca/strategy.ts';
import { columnsOf, DEFAULT_SLIPPAGE, type CandleColumns } from '../../strategy/backtest.ts';
import { exchangeById } from '../exchanges/catalog.ts';
import type { Timeframe } from '../market/symbols.ts';
import { GENESIS_MS, isPlainSimulation } from '../market/simulated.ts';
import type { Trading } from '../trading.ts';
import { marketStrings, type BacktestJob } from '../workers/heavy-jobs.ts';
import { heavyPool } from '../workers/heavy-pool.ts';
import { checkBotParams, storedParams } from './bots.ts';
import { fail } from './errors.ts';

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
  trading: Trading,
  owner: string,
  input: { exchangeId: number; symbol: string; days: 7 | 30 | 90; slippage?: string | undefined } & (
    | { type: 'martin'; params: MartinParamsInput }
    | { type: 'grid'; params: GridParamsInput }
    | { type: 'dca'; params: DcaParamsInput }
    | { type: 'custom'; params: CustomParamsInput }
  ),
): Promise<BacktestAnswer> {
  const exchange = exchangeById(input.exchangeId);
  if (!exchange) throw fail('ApiExchangeUnsupported');
  const params = storedParams(input.type, input.params);
  await checkBotParams({ trading }, input.type, exchange.code, input.symbol, params);
  const market = await trading.market(exchange.code, input.symbol);
  const now = trading.now();
  // A custom bot's rules, or a DCA bot's indicator start read as a custom bot's entry rule: their indicators need a warm-up.
  const rules = input.type === 'dca' ? startRules(params as DcaParams) : input.type === 'custom' ? (params as CustomParams) : null;
  const job: BacktestJob = { kind: 'backtest', type: input.type, params, market: marketStrings(market), slippage: input.slippage ?? DEFAULT_SLIPPAGE, candles: { columns: empty() } };
  const transfer: ArrayBufferLike[] = [];
  let timeframe: string;
  if (exchange.code === 'paper' && isPlainSimulation(trading.feed)) {
    // The simulated market's minutes (and any warm-up before them) are made in the worker from its seed.
    timeframe = '1m';
    const from = now - input.days * DAY;
    const start = Math.max(GENESIS_MS, from - ((from - GENESIS_MS) % 60_000));
    if (Math.floor((now - start) / 60_000) <= 0) throw fail('OrderInvalidPair');
    job.candles = { simulated: { seed: trading.feed.seed, symbol: input.symbol, fromMs: from, toMs: now } };
    if (rules) job.warmUpFrom = { seed: trading.feed.seed, symbol: input.symbol, rules: { entry: rules.entry, exit: 'exit' in rules ? rules.exit : undefined } };
  } else {
    let candles: CandleColumns & { time: Float64Array };
    if (exchange.code === 'paper') {
      timeframe = '1m';
      candles = trading.feed.minuteColumns(input.symbol, now - input.days * DAY, now);
    } else if (rules) {
      // A custom bot's rules (a DCA bot's indicator start) are checked on 1-minute candles: one page of them from a live exchange (often 1,000 minutes).
      timeframe = '1m';
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
    job.candles = { columns: { time, open, high, low, close } };
    if (rules) job.warmUp = await warmUpBefore(trading, exchange.code, input.symbol, rules, time[0]!);
    transfer.push(...[time, open, high, low, close].map((c) => c.buffer));
  }
  const report = await heavyPool().run<BacktestReport>(owner, job, { transfer });
  return { ...report, exchange: exchange.code, symbol: input.symbol, days: input.days, timeframe };
}

const empty = () => ({ time: new Float64Array(0), open: new Float64Array(0), high: new Float64Array(0), low: new Float64Array(0), close: new Float64Array(0) });

/** The first `n` candles of columns. */
function sliceColumns(c: CandleColumns & { time: Float64Array }, n: number): CandleColumns & { time: Float64Array } {
  return { time: c.time.slice(0, n), open: c.open.slice(0, n), high: c.high.slice(0, n), low: c.low.slice(0, n), close: c.close.slice(0, n) };
}

/** A custom bot's (a DCA indicator start's) warm-up before its backtest's first minute: the closed candles each of its timeframes needs (none when the history cannot be read). */
async function warmUpBefore(trading: Trading, exchange: string, symbol: string, params: Pick<CustomParams, 'entry' | 'exit'>, first: number): Promise<Partial<Record<RuleTimeframe, Candle[]>>> {
  const history = trading.history(exchange, symbol);
  const out: Partial<Record<RuleTimeframe, Candle[]>> = {};
  for (const [timeframe, n] of Object.entries(warmUpCandles(params)) as [RuleTimeframe, number][]) {
    try {
      out[timeframe] = await history(timeframe, first, n);
    } catch {
      // Without history the indicators start with the window, as a bot with none would.
    }
  }
  return out;
}
