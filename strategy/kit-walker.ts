import type Decimal from 'decimal.js';
import { cursorOf, DEFAULT_SLIPPAGE, marketAt, type PathCursor, priceOf, replayCandles, slipper, type BacktestFill, type CandleColumns, type FillModel, type Walker } from './backtest.ts';
import type { KitState, StrategyKit } from './kit-types.ts';
import { buyAmount } from './martin/plan.ts';
import type { MarketRules } from './martin/rules.ts';
import { restingFill } from './resting-fill.ts';
import { botId } from './types.ts';

/**
 * Any bot type on the candle walk, driven through its kit alone: asked at a price when its kit says it
 * asks (it waits to open), else at its trigger prices (`triggers`: up, down and the prices it decides
 * at), as the live engine's price book asks it (server/engine/bot-book.ts). Its orders fill by the fill
 * model (a buy spends its quote at the fill price, floored to the step). For strategies whose decisions
 * depend on the price alone: a type whose rules read candles or the clock (custom, DCA) walks its own.
 */
class KitWalker<S extends KitState, V extends { market: MarketRules }> implements Walker {
  down = Infinity;
  up = -Infinity;
  done = false;
  state: S;
  readonly fills: BacktestFill[] = [];
  cycles = 0;
  private downAt: Decimal | null = null;
  private upAt: Decimal | null = null;
  private readonly slip: (price: Decimal, side: 'buy' | 'sell') => Decimal;
  private readonly kit: StrategyKit<S, V>;
  private readonly view: V;
  private readonly cursor: PathCursor | undefined;

  constructor(kit: StrategyKit<S, V>, view: V, fill: FillModel, cursor?: PathCursor) {
    this.kit = kit;
    this.view = view;
    this.cursor = cursor;
    this.slip = slipper(fill.slippage);
    this.state = kit.initial(botId('backtest'));
    this.refresh();
  }

  act(at: number | 'down' | 'up', candle: number, past?: number): boolean {
    const price = at === 'down' ? this.downAt! : at === 'up' ? this.upAt! : priceOf(at);
    const reached = marketAt(this.cursor, at, candle, price, past);
    let market = reached.market;
    let acted = false;
    for (let guard = 0; guard < 100; guard++) {
      const asked = this.kit.decide(this.state, { type: 'PriceTicked', price }, this.view);
      this.state = asked.state;
      const order = asked.intents.find((i) => i.type === 'PlaceOrder');
      if (order?.type !== 'PlaceOrder') break;
      acted = true;
      const fillPrice = this.slip(restingFill(price, market, order.side), order.side);
      const amount = order.side === 'buy' ? buyAmount(order.quote!, fillPrice, this.view.market.stepSize) : order.amount!;
      this.fills.push({ candle, reason: order.reason, side: order.side, price: fillPrice.toFixed(), amount: amount.toFixed() });
      const filled = this.kit.decide(this.state, { type: 'OrderFilled', clientOrderId: order.clientOrderId, side: order.side, price: fillPrice, amount }, this.view);
      this.state = filled.state;
      for (const intent of filled.intents) if (intent.type === 'CycleClosed') this.cycles++;
      if (this.state.phase === 'done' || past !== undefined) break;
      // The order filled at the price the bot decided at: it is asked there again until it rests.
      market = price;
    }
    this.refresh();
    return acted;
  }

  private refresh(): void {
    this.done = this.state.phase === 'done';
    const t = this.kit.triggers(this.state, this.view);
    // A bot that asks at any price acts at the next price the walk reaches (a candle's open).
    this.down = t.asks ? Infinity : t.down;
    this.up = t.asks ? -Infinity : t.up;
    this.downAt = t.downAt ?? null;
    this.upAt = t.upAt ?? null;
  }
}

/** Replays a bot of any simple type over candles through its kit: its fills, its cycles closed and its state at the end. */
export function walkKit<S extends KitState, V extends { market: MarketRules }>(
  kit: StrategyKit<S, V>,
  view: V,
  candles: CandleColumns,
  fill: FillModel = { slippage: DEFAULT_SLIPPAGE },
): { fills: BacktestFill[]; cycles: number; realized: string; state: S } {
  const walker = new KitWalker(kit, view, fill, cursorOf(candles));
  replayCandles(candles, walker);
  return { fills: walker.fills, cycles: walker.cycles, realized: walker.state.realized.toFixed(), state: walker.state };
}
