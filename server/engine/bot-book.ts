import type Decimal from 'decimal.js';
import type { BotId, Intent } from '../../strategy/types.ts';
import { crossedTrigger, martinKit, type KitState, type StrategyKit } from '../../strategy/kit.ts';

interface Entry {
  state: KitState;
  /**
   * The state the engine put (its bot's state in memory then): a state the book moves on by itself (a
   * decision with nothing to do) keeps it, and a decision names it, so the engine can tell a decision made
   * on a state it has since replaced (a fill committed meanwhile) from one made on its own.
   */
  base: KitState;
  view: unknown;
  kit: StrategyKit;
  /** The trigger prices as doubles: a price update compares numbers and asks the strategy only on a cross. */
  upper: number;
  lower: number;
  asks: boolean;
  /** The trigger prices themselves (kit.triggers' upAt, downAt) and the up one as a double. */
  upAt: Decimal | null;
  upAtNumber: number;
  downAt: Decimal | null;
}

export interface BotIntents {
  bot: BotId;
  intents: Intent[];
  /** The price the bot decided at: the trigger price the round crossed, else the round's own. */
  price: Decimal;
  /** The decision was at a trigger price: its orders rest there (`PlaceOrder.at`). */
  atTrigger: boolean;
  /** The state the engine last put for this bot, which this decision was made on (Entry.base). */
  base: KitState;
}

/**
 * The running bots of one process, grouped by symbol: one price update of a symbol is checked against
 * every bot on it with two number comparisons each, and only the bots whose trigger was crossed (or
 * that wait to open) run their strategy. Doubles of decimal strings compare like the decimals, so the
 * pre-check never skips a bot the strategy would have acted on. Any strategy: its kit gives the triggers.
 */
export class BotBook {
  private readonly bySymbol = new Map<string, Map<BotId, Entry>>();

  /** Adds or replaces a bot, e.g. after a fill changed its state. */
  put<S extends KitState, V>(symbol: string, state: S, view: V, kit: StrategyKit<S, V> = martinKit as unknown as StrategyKit<S, V>): void {
    let bots = this.bySymbol.get(symbol);
    if (!bots) {
      bots = new Map();
      this.bySymbol.set(symbol, bots);
    }
    bots.set(state.bot, entryOf(state, state, view, kit as unknown as StrategyKit));
  }

  remove(symbol: string, bot: BotId): void {
    this.bySymbol.get(symbol)?.delete(bot);
  }

  get(symbol: string, bot: BotId): KitState | undefined {
    return this.bySymbol.get(symbol)?.get(bot)?.state;
  }

  size(): number {
    let n = 0;
    for (const bots of this.bySymbol.values()) n += bots.size;
    return n;
  }

  /**
   * A new price of a symbol (at the market's time `at`, ms, when known): every bot on it is evaluated; the
   * intents of those that act are returned. A bot whose trigger price the round crossed decides at that
   * price, as the backtest does (strategy/backtest.ts replayCandles: the price moved through it): its
   * order rests there (`atTrigger`); one trigger a round, the next one (a grid's second level) the next.
   * A take profit that only armed a trailing exit is then told the round's price as well (its high).
   */
  onPrice(symbol: string, price: Decimal, priceNumber = Number(price.toString()), at?: number): BotIntents[] {
    const bots = this.bySymbol.get(symbol);
    if (!bots) return [];
    const out: BotIntents[] = [];
    for (const [bot, e] of bots) {
      if (!e.asks && priceNumber < e.upper && priceNumber > e.lower) continue;
      const trigger = crossedTrigger({ down: e.lower, downAt: e.downAt, upAt: e.upAt }, priceNumber, e.upAtNumber);
      const decidedAt = trigger ?? price;
      let { state, intents } = e.kit.decide(e.state, { type: 'PriceTicked', price: decidedAt, at, ...(trigger ? { market: price } : {}) }, e.view);
      // A take profit that armed a trailing exit there (no order): the round's own price above it is the
      // market's too, and the followed high takes it, as the backtest's rise goes on to its top.
      if (trigger && price.gt(trigger) && !intents.some((i) => i.type === 'PlaceOrder')) {
        const then = e.kit.decide(state, { type: 'PriceTicked', price }, e.view);
        state = then.state;
        intents = [...intents, ...then.intents];
      }
      if (state !== e.state) bots.set(bot, entryOf(state, e.base, e.view, e.kit));
      if (intents.length > 0) out.push({ bot, intents, price: decidedAt, atTrigger: trigger !== null, base: e.base });
    }
    return out;
  }
}

function entryOf(state: KitState, base: KitState, view: unknown, kit: StrategyKit): Entry {
  const t = kit.triggers(state, view);
  const upAt = t.upAt ?? null;
  return { state, base, view, kit, upper: t.up, lower: t.down, asks: t.asks, upAt, upAtNumber: upAt ? Number(upAt.toString()) : Infinity, downAt: t.downAt ?? null };
}
