// What a grid's resting limit orders save against market orders sent when the price crosses a level,
// per 100 level fills, on the same simulated week: the fee (Paper's maker 0.08 % against its taker 0.1 %)
// and the price past the level a market order fills at (the second the engine saw the cross). The grid is
// played second by second through its kit as the engine's book asks it (at the crossed level's price);
// each level fill's notional and overshoot are summed. The start buy and exits are market orders either
// way and are left out. `node bench/maker-savings.ts` (in `npm run bench`).
import { paperMarket } from '../server/exchanges/paper-fill.ts';
import { PAPER_FEE_RATE, PAPER_MAKER_FEE_RATE } from '../server/market/paper-rules.ts';
import { GENESIS_MS, SimulatedMarket } from '../server/market/simulated.ts';
import { storedParams } from '../server/services/bots.ts';
import { crossedTrigger, kitOf } from '../strategy/kit.ts';
import { floorTo, money } from '../strategy/money.ts';
import { botId, type EngineEvent } from '../strategy/types.ts';
import { round } from './stats.ts';

const DAYS = 7;

/** One grid over a week of seconds: its level fills, what they traded, and what market orders would have cost more. */
export function gridWeek(symbol: string, width: number, grids: number, fromMs = GENESIS_MS + 30 * 86_400_000) {
  const feed = new SimulatedMarket();
  const info = feed.info(symbol);
  const market = paperMarket(symbol, info.tick, info.step);
  const start = Number(feed.priceAt(symbol, fromMs));
  const kit = kitOf('grid');
  const params = storedParams('grid', {
    investment: '10000',
    lower: (start * (1 - width)).toFixed(2),
    upper: (start * (1 + width)).toFixed(2),
    grids,
    spacing: 'arithmetic',
    stopLoss: '',
    takeProfit: '',
  });
  const view = kit.view(params, market);
  let state = kit.initial(botId('bench'));
  let fills = 0;
  let notional = money(0);
  let overshoot = money(0);
  const taker = money(PAPER_FEE_RATE);
  const maker = money(PAPER_MAKER_FEE_RATE);
  for (let s = 0; s < DAYS * 86_400; s++) {
    const text = feed.priceAt(symbol, fromMs + s * 1000);
    const p = Number(text);
    const t = kit.triggers(state, view);
    if (!t.asks && p < t.up && p > t.down) continue;
    const trigger = crossedTrigger(t, p);
    const at = trigger ?? money(text);
    const decided = kit.decide(state, { type: 'PriceTicked', price: at }, view);
    state = decided.state;
    for (const intent of decided.intents) {
      if (intent.type !== 'PlaceOrder') continue;
      const amount = intent.amount ?? floorTo(intent.quote!.div(at), market.stepSize);
      if (trigger && (intent.reason === 'add' || intent.reason === 'close')) {
        fills++;
        notional = notional.plus(amount.mul(at));
        // A market order fills at the price the round saw, past the level (worse for the trader either way).
        overshoot = overshoot.plus(amount.mul(money(text).minus(at).abs()));
      }
      const filled: EngineEvent = { type: 'OrderFilled', clientOrderId: intent.clientOrderId, side: intent.side, price: at, amount };
      state = kit.decide(state, filled, view).state;
    }
  }
  const fee = notional.mul(taker.minus(maker));
  const per100 = (d: ReturnType<typeof money>) => (fills === 0 ? 0 : round(d.div(fills).mul(100).toNumber(), 2));
  return {
    symbol,
    grid: `±${width * 100} %, ${grids} grids, 10,000 USDT`,
    fills,
    notionalPerFill: fills === 0 ? 0 : round(notional.div(fills).toNumber(), 2),
    per100Fills: { feeSaved: per100(fee), slippageSaved: per100(overshoot), total: per100(fee.plus(overshoot)) },
    savedBps: notional.isZero() ? 0 : round(fee.plus(overshoot).div(notional).mul(10_000).toNumber(), 2),
  };
}

/** The savings of a few grids, each on its own symbol. */
export function measureMakerSavings() {
  const results = [gridWeek('BTC/USDT', 0.05, 20), gridWeek('ETH/USDT', 0.05, 20), gridWeek('SOL/USDT', 0.08, 40)];
  return {
    target: 'the maker fee and slippage saved per 100 grid fills against market orders, on the same simulated week',
    results,
    note: `each grid played second by second for ${DAYS} days of Paper's simulated market through its kit (the engine's book's crossed-level rule); a level fill rests at its level as a maker (${PAPER_MAKER_FEE_RATE}) against a market order at the second's price past the level as a taker (${PAPER_FEE_RATE}); savings in USDT`,
  };
}

if (import.meta.main) console.log(JSON.stringify(measureMakerSavings(), null, 2));
