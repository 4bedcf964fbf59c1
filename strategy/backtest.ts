import type Decimal from 'decimal.js';
import type { Candle, CustomFeed } from './custom/feed.ts';
import type { CandleClosed } from './custom/strategy.ts';
import { doubleOf, money } from './money.ts';
import { restingFill } from './resting-fill.ts';
import { botId, type BotId, type Intent, type OrderFilled, type PlaceOrder, type PriceTicked, type Triggers } from './types.ts';
import { buyAmount } from './core/position.ts';
import type { MarketRules } from './core/market.ts';
import { decideMartin, initialMartinState, martinKitTriggers, type MartinState, type MartinView } from './martin/strategy.ts';

/** Candles as columns of numbers (fast to scan); prices are the decimal strings' nearest doubles. */
export interface CandleColumns {
  open: Float64Array;
  high: Float64Array;
  low: Float64Array;
  close: Float64Array;
  /** The market's path inside each candle, when the data knows it (the simulated market's seconds). */
  path?: CandlePath;
}

/**
 * What a backtest may know of the market inside a candle beyond its four prices: the simulated market
 * (server/market/simulated.ts) knows each of its seconds, which the live engine's price rounds read.
 * Without it the walk takes the usual order (low first on a green candle), an order decided at a trigger
 * fills at the trigger, and a bot that waits to open after a fill opens at the fill's price.
 */
export interface CandlePath {
  /** 1 where candle i reached its low before its high (the walk's order inside it). */
  readonly lowFirst: Uint8Array;
  /** The market's price at second `s` of candle i (0-61; 60 is the next candle's open). */
  second(i: number, s: number): number;
}

/** A path's candles from `from` on, for a view of the columns that starts there. */
export function pathFrom(path: CandlePath, from: number): CandlePath {
  return from === 0 ? path : { lowFirst: path.lowFirst.subarray(from), second: (i, s) => path.second(i + from, s) };
}

const num = (d: Decimal) => Number(d.toString());

/**
 * One walk's place in its candles' seconds: where an order decided at a trigger fills and where a bot
 * waiting to open opens next, as the live engine's price rounds (one a second) take them. The walk
 * reached a trigger in a candle: the first second since its last trigger there at or past the price is
 * the round that decides (a resting order fills by restingFill against that second's price); the next
 * second is the next round, where a bot that closed its cycle opens again.
 */
class PathCursor {
  private candle = -1;
  private next = 0;
  private readonly path: CandlePath;

  constructor(path: CandlePath) {
    this.path = path;
  }

  /** At `price` in candle i, moving up (or down; with `past`, the candle opened past it). Undefined when its seconds never got there. */
  reached(i: number, price: number, up: boolean, past?: number): { market: number; next: number } | undefined {
    if (i !== this.candle || past !== undefined) {
      this.candle = i;
      this.next = 0;
    }
    for (let s = this.next; s <= 60; s++) {
      const p = this.path.second(i, s);
      if (past !== undefined || (up ? p >= price : p <= price)) {
        this.next = s + 1;
        return { market: p, next: this.path.second(i, s + 1) };
      }
    }
    return undefined;
  }
}

/** A walker's cursor on the candles' path, when they have one. */
const cursorOf = (candles: CandleColumns) => (candles.path ? new PathCursor(candles.path) : undefined);

/**
 * What a walker's act at `at` (deciding at `price`) fills against: the open the candle jumped to
 * (`past`), else, with a path, the price of the second that reached the trigger (PathCursor.reached),
 * else the trigger itself; `next`, with a path, the following second's price, where a bot that closed
 * its cycle there opens the next. A price the walk jumped or rose to (a candle's open, a rise's top a
 * trailing exit follows) moves the cursor to the second the market got there; the act is at that price.
 */
function marketAt(cursor: PathCursor | undefined, at: number | 'down' | 'up', candle: number, price: Decimal, past?: number): { market: Decimal; next?: number } {
  if (cursor && typeof at === 'number') cursor.reached(candle, at, true);
  const seconds = cursor && typeof at !== 'number' ? cursor.reached(candle, num(price), at === 'up', past) : undefined;
  return { market: past !== undefined ? priceOf(past) : seconds ? priceOf(seconds.market) : price, next: seconds?.next };
}

/**
 * A candle's price (a double, the nearest to its decimal string) as the exact decimal it stands for.
 * The walks of a search meet the same few thousand prices again and again (the same candles' opens
 * and seconds, candidate after candidate), and a parse costs more than a fill's multiplication, so
 * the latest are kept (a decimal is immutable; the table is emptied when it grows past 4,096).
 */
function priceOf(value: number): Decimal {
  let known = prices.get(value);
  if (known === undefined) {
    if (prices.size >= 4096) prices.clear();
    known = money(String(value));
    prices.set(value, known);
  }
  return known;
}
const prices = new Map<number, Decimal>();

/** Candles as answered by an exchange (decimal strings or numbers), as columns with their open times. */
export function columnsOf(rows: readonly { time: number; open: string | number; high: string | number; low: string | number; close: string | number }[]): CandleColumns & { time: Float64Array } {
  const col = (k: 'time' | 'open' | 'high' | 'low' | 'close') => Float64Array.from(rows, (r) => Number(r[k]));
  return { time: col('time'), open: col('open'), high: col('high'), low: col('low'), close: col('close') };
}

export interface BacktestFill {
  candle: number;
  reason: string;
  side: 'buy' | 'sell';
  price: string;
  amount: string;
  /** An order that rested on the book (FillModel.resting): filled at its price, at the maker's fee. */
  maker?: boolean;
}

export type BacktestResult = WalkResult<MartinState>;

/**
 * How a backtest fills a triggered market order (README.md, "The fill model"): at the trigger price
 * itself when the price moved through it, at the candle's open when the candle opened past it, then
 * `slippage` against the trader: a buy at price x (1 + slippage), a sell at price x (1 - slippage).
 */
export interface FillModel {
  /** A fraction as a decimal string: '0.0005' is 0.05 %; '0' fills at the price itself. */
  slippage: string;
  /**
   * The type's orders rest on the book as limit orders, as the live engine rests them (its RESTING_ORDERS
   * setting; strategy/resting.ts): an order one of its slots stands for fills at its own price, with no
   * slippage, at the maker's fee (MarketRules.makerFeeRate). Exits (a stop, a trailing line, a close) still
   * go at market. Off: every order is a market order.
   */
  resting?: boolean | undefined;
}

/**
 * The slippage every backtest and the AI search assume unless told otherwise: 0.05 %. A live bot's
 * market order is sent on the engine's next price round (up to 1 s after the cross) and crosses the
 * book's spread; 0.05 % covers both on the liquid pairs the product trades (a major pair's spread is a
 * few hundredths of a percent or less).
 */
export const DEFAULT_SLIPPAGE = '0.0005';
/** The largest slippage a backtest accepts: 5 %. */
export const MAX_SLIPPAGE = '0.05';

/** Fill prices under a slippage: a buy pays more, a sell gets less, by exactly the fraction. */
function slipper(slippage: string = DEFAULT_SLIPPAGE): (price: Decimal, side: 'buy' | 'sell') => Decimal {
  const s = money(slippage);
  if (s.isZero()) return (price) => price;
  const up = money(1).plus(s);
  const down = money(1).minus(s);
  return (price, side) => price.mul(side === 'buy' ? up : down);
}

/**
 * A bot as the candle walk drives it. It acts when the price is at or below `down` or at or above `up`
 * (its trigger prices as doubles; a bot that waits to open has down = +Infinity). Doubles of two decimal
 * strings compare in the same order as the decimals, so comparing numbers skips nothing it would act on.
 */
export interface Walker {
  down: number;
  up: number;
  /**
   * A trailing exit's high (absent or Infinity: none): the strategy is told of any price above it. A
   * rise to a price tells it that price once (the high of a continuous rise is its end), a jump above
   * it tells it the open.
   */
  follow?: number;
  done: boolean;
  /**
   * The strategy asked at a price and every order it places filled (asked again at that price until it
   * rests); `down` and `up` refreshed. 'down' / 'up': the price reached that trigger and acts at the
   * trigger price itself; with `past`, the market jumped past it to that price (a candle's open): one
   * decision only, its order filled by restingFill (at the trigger, never better than that price), the
   * next taken by the jump as the engine's next round. A number: the price the market jumped to, where a
   * bot waiting to open or following a high acts. With the candles' path (CandlePath), an order decided
   * at a trigger fills against the price of the second that reached it, and a bot that closed its cycle
   * there opens the next at the following second's price, within the same act. False when the strategy
   * did nothing there.
   */
  act(at: number | 'down' | 'up', candle: number, past?: number): boolean;
}

/**
 * The price path every backtest walks: each candle is the jump from the previous close to its open,
 * then continuous segments open -> low -> high -> close on a green candle (close >= open) and
 * open -> high -> low -> close on a red one (or in the order the candles' path gives). A trigger passed
 * by the jump acts at the open; a trigger reached inside a segment acts at the trigger price itself;
 * several triggers in one segment act one after another in the order the price meets them. Between
 * triggers nothing is asked: a run of candles whose prices all lie strictly between the bot's triggers
 * (blockRanges) is passed over whole, so a quiet month costs a few comparisons per block, not per
 * candle. `from` and `to`: the candles walked (all by default); indexes stay those of the columns.
 */
export function replayCandles(candles: CandleColumns, walker: Walker, from = 0, to = candles.open.length): void {
  const { open, high, low, close } = candles;
  const lowFirst = candles.path?.lowFirst;
  const ranges = to - from >= SMALL ? blockRanges(candles) : undefined;
  let i = from;
  while (i < to) {
    if (ranges && (i & SMALL_MASK) === 0 && i + SMALL <= to) {
      // A block is passed when nothing in it reaches a trigger: above the down trigger, below the up
      // trigger, never above a followed high (the same tests as below, on the block's extremes).
      const down = walker.down;
      const up = walker.up;
      const follow = walker.follow ?? Infinity;
      const big = i >> LARGE_BITS;
      if ((i & LARGE_MASK) === 0 && i + LARGE <= to && ranges.largeLow[big]! > down && ranges.largeHigh[big]! < up && ranges.largeHigh[big]! <= follow) {
        i += LARGE;
        continue;
      }
      const small = i >> SMALL_BITS;
      if (ranges.smallLow[small]! > down && ranges.smallHigh[small]! < up && ranges.smallHigh[small]! <= follow) {
        i += SMALL;
        continue;
      }
    }
    const o = open[i]!;
    if ((o <= walker.down || o >= walker.up || o > (walker.follow ?? Infinity)) && jump(walker, o, i)) return;
    const c = close[i]!;
    if (lowFirst ? lowFirst[i] === 1 : c >= o) {
      if (fall(walker, low[i]!, i) || rise(walker, high[i]!, i) || fall(walker, c, i)) return;
    } else if (rise(walker, high[i]!, i) || fall(walker, low[i]!, i) || rise(walker, c, i)) return;
    i++;
  }
}

const SMALL_BITS = 4;
const SMALL = 1 << SMALL_BITS;
const SMALL_MASK = SMALL - 1;
const LARGE_BITS = 8;
const LARGE = 1 << LARGE_BITS;
const LARGE_MASK = LARGE - 1;

/**
 * The lowest and highest price (of all four, so candles whose open or close lie outside their low and
 * high cannot slip through) of each aligned block of 16 and of 256 candles; a partial last block is
 * never passed over whole. Built once per set of columns and kept beside them (the search runs hundreds
 * of bots over the same candles).
 */
interface BlockRanges {
  smallLow: Float64Array;
  smallHigh: Float64Array;
  largeLow: Float64Array;
  largeHigh: Float64Array;
}

const rangesOfColumns = new WeakMap<Float64Array, BlockRanges>();

function blockRanges(candles: CandleColumns): BlockRanges {
  const known = rangesOfColumns.get(candles.low);
  if (known && known.smallLow.length === candles.low.length >> SMALL_BITS) return known;
  const { open, high, low, close } = candles;
  const smallLow = new Float64Array(low.length >> SMALL_BITS);
  const smallHigh = new Float64Array(smallLow.length);
  for (let b = 0; b < smallLow.length; b++) {
    let lo = Infinity;
    let hi = -Infinity;
    for (let i = b << SMALL_BITS, end = i + SMALL; i < end; i++) {
      const o = open[i]!;
      const c = close[i]!;
      const l = low[i]!;
      const h = high[i]!;
      lo = Math.min(lo, l, o, c);
      hi = Math.max(hi, h, o, c);
    }
    smallLow[b] = lo;
    smallHigh[b] = hi;
  }
  const perLarge = LARGE >> SMALL_BITS;
  const largeLow = new Float64Array(low.length >> LARGE_BITS);
  const largeHigh = new Float64Array(largeLow.length);
  for (let b = 0; b < largeLow.length; b++) {
    let lo = Infinity;
    let hi = -Infinity;
    for (let s = b * perLarge, end = s + perLarge; s < end; s++) {
      lo = Math.min(lo, smallLow[s]!);
      hi = Math.max(hi, smallHigh[s]!);
    }
    largeLow[b] = lo;
    largeHigh[b] = hi;
  }
  const ranges = { smallLow, smallHigh, largeLow, largeHigh };
  rangesOfColumns.set(candles.low, ranges);
  return ranges;
}

/**
 * The price jumped to `to` (a candle's open), taken as the live engine takes a price round past its
 * triggers (server/engine/bot-book.ts), one decision at a time: a trigger it passed acts at its own
 * price, its order filled by restingFill (at the trigger, never better than `to`); a bot waiting to open
 * acts at `to`; again until the bot rests; then a followed high above is raised to `to`. True when the
 * bot is done.
 */
function jump(w: Walker, to: number, i: number): boolean {
  for (let guard = 0; guard < 1000; guard++) {
    let acted: boolean;
    if (w.down === Infinity) acted = w.act(to, i);
    else if (to <= w.down) acted = w.act('down', i, to);
    else if (to >= w.up) acted = w.act('up', i, to);
    else break;
    if (w.done) return true;
    if (!acted) break;
  }
  if (to > (w.follow ?? Infinity)) w.act(to, i);
  return w.done;
}

/**
 * The price falls continuously to `to`: the triggers it reaches act at their prices, highest first.
 * True when the bot is done. (After acting at a price, a bot's triggers lie beyond it, so the loop ends;
 * a trigger the strategy does not act on stops the segment rather than loop.)
 */
function fall(w: Walker, to: number, i: number): boolean {
  while (w.down >= to) {
    if (!w.act('down', i)) return w.done;
    if (w.done) return true;
  }
  return false;
}

/**
 * The price rises continuously to `to`: the triggers it reaches act at their prices, lowest first; then
 * a followed high (a trailing exit) is raised to `to`, the rise's top (a rise only raises it: nothing
 * between sells).
 */
function rise(w: Walker, to: number, i: number): boolean {
  while (w.up <= to) {
    if (!w.act('up', i)) break;
    if (w.done) return true;
  }
  if (to > (w.follow ?? Infinity)) w.act(to, i);
  return w.done;
}

/** What the walk needs of a bot type (its kit, kit-types.ts StrategyKit): its decisions and when it is asked. */
export interface WalkedKit<S extends { phase: string; realized: Decimal }, V> {
  initial(bot: BotId): S;
  decide(state: S, event: PriceTicked | OrderFilled, view: V): { state: S; intents: Intent[] };
  triggers(state: S, view: V): Triggers;
  /** A type whose orders can rest on the book: the slot a decided state's order stands for (null: a market order). */
  resting?: { slotOf(state: S): string | null } | undefined;
  /** A type whose rules read candles: its feed (null: none for these parameters) and its decision at a candle's close. */
  indicators?: { feed(state: S, view: V): CustomFeed | null; closed(state: S, candle: CandleClosed, view: V): { state: S; intents: Intent[] } } | undefined;
}

/** What a walk left: its fills, the cycles it closed, its exact realised profit and its state at the end. */
export interface WalkResult<S> {
  fills: BacktestFill[];
  cycles: number;
  realized: string;
  state: S;
}

/**
 * Any bot type on the candle walk, driven through its kit alone, as the live engine's price book asks it
 * (server/engine/bot-book.ts): at its trigger prices (`triggers`: up and down, decided at upAt and downAt;
 * a trailing exit's high, raised to the top of each rise), and, while it waits to open (`asks`), at the
 * prices the walk jumps to (a candle's open), not before the market time it names (`after`: a schedule, a
 * cooldown) and, when the candles' path knows the engine's next round, at that second's price right after
 * the fill that closed its cycle. A type whose rules read candles (`indicators`: a feed for these
 * parameters) is told each candle's close after its path instead of being asked at every price. Its
 * orders fill by the fill model; after a fill it is asked again at the same price until it rests.
 */
class KitWalker<S extends { phase: string; realized: Decimal }, V extends { market: MarketRules }> implements Walker {
  down = Infinity;
  up = -Infinity;
  follow = Infinity;
  done = false;
  state: S;
  readonly fills: BacktestFill[] = [];
  cycles = 0;
  /** The feed of a type whose rules read candles: it is told each close (closed) and its prices carry no time. */
  readonly feed: CustomFeed | null;
  private downAt: Decimal | null = null;
  private upAt: Decimal | null = null;
  /** It waits to open: asked at the prices the walk jumps to, from the market time `after` on. */
  private opens = false;
  private after = -Infinity;
  private readonly kit: WalkedKit<S, V>;
  private readonly view: V;
  private readonly slip: (price: Decimal, side: 'buy' | 'sell') => Decimal;
  /** FillModel.resting, for a type whose orders can rest. */
  private readonly resting: boolean;
  private readonly time: Float64Array | undefined;
  private readonly cursor: PathCursor | undefined;
  private readonly candle: CandleClosed = { type: 'CandleClosed', time: 0, open: 0, high: 0, low: 0, close: 0 };

  constructor(kit: WalkedKit<S, V>, view: V, fill: FillModel, candles: CandleColumns & { time?: Float64Array | undefined }) {
    this.kit = kit;
    this.view = view;
    this.slip = slipper(fill.slippage);
    this.resting = fill.resting === true && kit.resting !== undefined;
    this.time = candles.time;
    this.cursor = cursorOf(candles);
    this.state = kit.initial(botId('backtest'));
    this.feed = kit.indicators?.feed(this.state, view) ?? null;
    this.refresh();
  }

  act(at: number | 'down' | 'up', candle: number, past?: number): boolean {
    const time = this.time?.[candle];
    // Waiting to open, it is asked at the prices the walk jumps to, once its time has come (a comparison per candle till then).
    if (this.opens && (typeof at !== 'number' || (this.after !== -Infinity && !((time ?? Number.NaN) >= this.after)))) return false;
    let price = at === 'down' ? (this.downAt ?? priceOf(this.down)) : at === 'up' ? (this.upAt ?? priceOf(this.up)) : priceOf(at);
    // With a path: the market at the second that reached the trigger, and at the next, where a closed cycle opens again.
    const reached = marketAt(this.cursor, at, candle, price, past);
    let market = reached.market;
    const next = reached.next;
    // The market time of the price, for a strategy that acts on time; a feed takes whole candles instead.
    let event: PriceTicked = this.feed ? { type: 'PriceTicked', price } : { type: 'PriceTicked', price, at: time };
    let acted = false;
    // The triggers were read for the state as it is; a decision that changes nothing keeps its state.
    let fresh = true;
    for (let guard = 0; guard < 1000; guard++) {
      const asked = this.kit.decide(this.state, event, this.view);
      if (asked.state !== this.state) {
        this.state = asked.state;
        fresh = false;
      }
      const order = placed(asked.intents);
      if (!order) break;
      acted = true;
      this.fill(order, price, market, candle);
      fresh = false;
      if (this.state.phase === 'done') break;
      if (next !== undefined) {
        // A bot that waits to open again (its cycle closed) opens on the engine's next round, at that second's price.
        this.refresh();
        fresh = true;
        if (this.opens) {
          price = priceOf(next);
          market = price;
          past = undefined;
          event = { ...event, price };
          continue;
        }
      }
      // Past a gap, one decision: the jump asks again as the engine's next round would.
      if (past !== undefined) break;
    }
    if (!fresh) this.refresh();
    return acted;
  }

  /**
   * Candle i closed: its feed takes it and the rules are checked; an order placed there fills at the
   * close (live: at the next minute's first price, the same when the market does not jump), and the bot
   * is asked again at the close until it rests.
   */
  closed(candles: CandleColumns & { time: Float64Array }, i: number): void {
    const event = this.candle;
    event.time = candles.time[i]!;
    event.open = candles.open[i]!;
    event.high = candles.high[i]!;
    event.low = candles.low[i]!;
    event.close = candles.close[i]!;
    const before = this.state;
    let asked = this.kit.indicators!.closed(before, event, this.view);
    for (let guard = 0; guard < 1000; guard++) {
      this.state = asked.state;
      const order = placed(asked.intents);
      if (!order) break;
      const price = priceOf(event.close);
      this.fill(order, price, price, i);
      if (this.state.phase === 'done') break;
      asked = this.kit.decide(this.state, { type: 'PriceTicked', price }, this.view);
    }
    // Most closes check the rules and change nothing.
    if (this.state !== before) this.refresh();
  }

  /** The order placed at `price` fills by the fill model against `market`, and the strategy is told. */
  private fill(order: PlaceOrder, price: Decimal, market: Decimal, candle: number): void {
    // An order its slot rests on the book for: filled at its own price, as the maker (the state is the decided one, its order in flight).
    const maker = this.resting && this.kit.resting!.slotOf(this.state) !== null;
    const at = restingFill(price, market, order.side);
    const fillPrice = maker ? at : this.slip(at, order.side);
    const amount = order.side === 'buy' ? buyAmount(order.quote!, fillPrice, this.view.market.stepSize) : order.amount!;
    this.fills.push({ candle, reason: order.reason, side: order.side, price: fillPrice.toFixed(), amount: amount.toFixed(), ...(maker ? { maker } : {}) });
    const event: OrderFilled = { type: 'OrderFilled', clientOrderId: order.clientOrderId, side: order.side, price: fillPrice, amount, ...(maker ? { maker } : {}) };
    const filled = this.kit.decide(this.state, event, this.view);
    this.state = filled.state;
    for (const intent of filled.intents) if (intent.type === 'CycleClosed') this.cycles++;
  }

  private refresh(): void {
    const t = this.kit.triggers(this.state, this.view);
    this.done = this.state.phase === 'done';
    // A type with a feed asks at every price live only to build its candles: here it is told each close.
    this.opens = t.asks && this.feed === null;
    if (this.opens) {
      this.down = Infinity;
      this.up = -Infinity;
      this.follow = Infinity;
      this.after = t.after ?? -Infinity;
      return;
    }
    this.down = t.down;
    this.downAt = t.downAt ?? null;
    this.upAt = t.upAt ?? null;
    // `up` below its trigger price (or with none) is a followed high: the walk raises it to the top of
    // each rise. A high at or above the trigger needs no following of its own: a rise past it crosses
    // the trigger first, where the strategy acts (it sells, or arms its trailing exit: new triggers).
    const trigger = t.upAt ? doubleOf(t.upAt) : t.upAt === null ? Infinity : t.up;
    this.up = trigger;
    this.follow = t.up < trigger ? t.up : Infinity;
  }
}

/** The order among a decision's intents, if it placed one. */
function placed(intents: readonly Intent[]): PlaceOrder | undefined {
  for (const intent of intents) if (intent.type === 'PlaceOrder') return intent;
  return undefined;
}

/**
 * Replays a bot of any type over candles through its kit, with the same pure strategy the live engine
 * runs, on the price path of `replayCandles`, its orders filled by the fill model (default: at the
 * trigger, 0.05 % slippage). The strategy is only asked where its kit says it acts, which keeps a scan
 * at millions of candles a second. `time` (each candle's open time, ms) is the clock of a strategy that
 * acts on time; a type whose rules read candles walks candle by candle, its path then its close (without
 * `time`, not at all), its indicators warmed up by `warmUp` (closed candles of its timeframes before the
 * first one).
 */
export function walkKit<S extends { phase: string; realized: Decimal }, V extends { market: MarketRules }>(
  kit: WalkedKit<S, V>,
  view: V,
  candles: CandleColumns & { time?: Float64Array | undefined },
  fill: FillModel = { slippage: DEFAULT_SLIPPAGE },
  warmUp?: Partial<Record<string, readonly Candle[]>>,
): WalkResult<S> {
  const walker = new KitWalker(kit, view, fill, candles);
  const { feed } = walker;
  const time = candles.time;
  if (!feed) replayCandles(candles, walker);
  else if (time) {
    if (warmUp) for (const tf of feed.timeframes()) if (warmUp[tf]) feed.seed(tf, warmUp[tf]!);
    const timed = { ...candles, time };
    for (let i = 0; i < time.length && !walker.done; i++) {
      // One candle's path (none to walk while no price can ask it: flat, waiting for its rules), then its close.
      if (walker.down !== -Infinity || walker.up !== Infinity || walker.follow !== Infinity) replayCandles(timed, walker, i, i + 1);
      if (!walker.done) walker.closed(timed, i);
    }
  }
  return { fills: walker.fills, cycles: walker.cycles, realized: walker.state.realized.toFixed(), state: walker.state };
}

/** Replays a martin bot over candles (walkKit with the martin strategy). */
export function backtestMartin(view: MartinView, candles: CandleColumns, fill: FillModel = { slippage: DEFAULT_SLIPPAGE }): BacktestResult {
  return walkKit({ initial: initialMartinState, decide: decideMartin, triggers: martinKitTriggers }, view, candles, fill);
}
