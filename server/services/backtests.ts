import type { CustomParamsInput, DcaParamsInput, GridParamsInput, MartinParamsInput } from '../../contract/bots.ts';
import type { BacktestAnswer } from '../../contract/schemas.ts';
import { customReport, dcaReport, gridReport, martinReport } from '../../strategy/backtest-report.ts';
import { warmUpCandles, type Candle } from '../../strategy/custom/feed.ts';
import type { CustomParams, Timeframe as RuleTimeframe } from '../../strategy/custom/rules.ts';
import type { DcaParams } from '../../strategy/dca/rules.ts';
import { startRules } from '../../strategy/dca/strategy.ts';
import type { GridParams } from '../../strategy/grid/rules.ts';
import type { MartinParams } from '../../strategy/martin/rules.ts';
import { columnsOf, DEFAULT_SLIPPAGE, type CandleColumns } from '../../strategy/backtest.ts';
import { exchangeById } from '../exchanges/catalog.ts';
import type { Timeframe } from '../market/symbols.ts';
import type { Trading } from '../trading.ts';
import { checkBotParams, storedParams } from './bots.ts';
import { fail } from './errors.ts';

/**
 * A backtest before the bot is saved (issue 6 §2): the same strategy code on the recent history of the
 * symbol. Paper replays its own market minute by minute; a live exchange answers one page of candles,
 * so the window sets the candle size (7 days: 15 m, 30 days: 1 h, 90 days: 4 h). Orders fill at their
 * trigger price (the candle's open when it opened past it) with the asked slippage, 0.05 % by default.
 */
const liveTimeframe: Record<number, Timeframe> = { 7: '15m', 30: '1h', 90: '4h' };
const minutesOf: Record<string, number> = { '15m': 15, '1h': 60, '4h': 240 };
const DAY = 86_400_000;

export async function backtest(
  trading: Trading,
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
  // A DCA bot's indicator start: its rule, read as a custom bot's entry rule.
  const rules = input.type === 'dca' ? startRules(params as DcaParams) : null;
  let candles: CandleColumns & { time: Float64Array };
  let timeframe: string;
  if (exchange.code === 'paper') {
    timeframe = '1m';
    candles = trading.feed.minuteColumns(input.symbol, now - input.days * DAY, now);
  } else if (input.type === 'custom' || rules) {
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
  const fill = { slippage: input.slippage ?? DEFAULT_SLIPPAGE };
  const report =
    input.type === 'grid'
      ? gridReport({ params: params as GridParams, market }, candles, fill)
      : input.type === 'dca'
        ? dcaReport({ params: params as DcaParams, market }, candles, fill, undefined, rules ? await warmUpBefore(trading, exchange.code, input.symbol, rules, candles.time[0]!) : undefined)
        : input.type === 'custom'
          ? customReport({ params: params as CustomParams, market }, candles, fill, await warmUpBefore(trading, exchange.code, input.symbol, params as CustomParams, candles.time[0]!))
          : martinReport({ params: params as MartinParams, market }, candles, fill);
  return { ...report, exchange: exchange.code, symbol: input.symbol, days: input.days, timeframe };
}

/** The first `n` candles of columns. */
function sliceColumns(c: CandleColumns & { time: Float64Array }, n: number): CandleColumns & { time: Float64Array } {
  return { time: c.time.subarray(0, n), open: c.open.subarray(0, n), high: c.high.subarray(0, n), low: c.low.subarray(0, n), close: c.close.subarray(0, n), ...(c.path ? { path: c.path } : {}) };
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
