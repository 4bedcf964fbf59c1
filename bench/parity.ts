// Backtest vs the live engine on the simulated market's own seconds: 7 days of one price
// round per second (604,800) through the runner and the Paper venue, per symbol, against the backtest of
// the same minutes as the product reads them (their candles and their seconds' path; fill at the trigger,
// no slippage). The grids' orders rest on the book (RESTING_ORDERS=grid), filled at their level as the maker
// live and in the backtest alike. server/testing/parity-support.ts.
import { SimulatedMarket } from '../server/market/simulated.ts';
import { customParityBot, secondsParity, type ParityBot } from '../server/testing/parity-support.ts';

const martin = (addTrigger: string, takeProfit: string): ParityBot => ({
  type: 'martin',
  params: { investment: '2000', firstOrder: '40', multiplier: '1.5', maxPositions: 6, addTrigger, takeProfit, stopLoss: '', repeat: true },
});
const grid = (price: number, width: number, grids: number): ParityBot => ({
  type: 'grid',
  params: { investment: '9000', lower: (price * (1 - width)).toFixed(2), upper: (price * (1 + width)).toFixed(2), grids, spacing: 'geometric', stopLoss: '', takeProfit: '' },
});

const dca = (deviation: string, takeProfit: string, trailingDeviation = ''): ParityBot => ({
  type: 'dca',
  params: {
    investment: '2000',
    baseOrder: '60',
    safetyOrder: '40',
    maxSafetyOrders: 6,
    deviation,
    stepScale: '1.3',
    volumeScale: '1.5',
    takeProfit,
    trailingDeviation,
    stopLoss: '',
    cooldown: 0,
    start: { kind: 'now' },
  },
});

export async function measureParity(days = 7, symbols = ['BTC/USDT', 'ETH/USDT'], from = Date.UTC(2026, 0, 5), resting: readonly string[] = ['grid']) {
  const out: Record<string, unknown> = { days, from: new Date(from).toISOString(), resting };
  let live = 0;
  let backtest = 0;
  for (const symbol of symbols) {
    const price = Number(new SimulatedMarket().priceAt(symbol, from));
    const bots = [
      martin('0.5', '0.5'),
      martin('1', '1'),
      martin('2', '1.5'),
      grid(price, 0.05, 10),
      grid(price, 0.1, 20),
      grid(price, 0.1, 40),
      dca('0.8', '1'),
      dca('1', '1.5', '0.5'),
      customParityBot({}),
      customParityBot({ trailingDeviation: '0.15', trailingStop: true }),
    ];
    const { rows, ms } = await secondsParity({ symbol, from, seconds: days * 86_400, bots, resting });
    out[symbol] = {
      seconds: days * 86_400,
      s: Math.round(ms / 100) / 10,
      // Equal to the last decimal, with the same cycles (the lines below round to 4 decimals).
      exact: `${rows.filter((r) => String(r.live.realized) === String(r.backtest.realized) && r.live.cycles === r.backtest.cycles).length} of ${rows.length}`,
      bots: rows.map((r) => {
        live += Number(r.live.realized);
        backtest += Number(r.backtest.realized);
        const p = r.bot.params as Record<string, unknown>;
        const name =
          r.bot.type === 'custom'
            ? `custom rsi(6) < 30 tp 0.4% sl 0.6%${p.trailingDeviation ? ` trailing ${p.trailingDeviation}% and stop` : ''}`
            : r.bot.type === 'martin'
              ? `martin add ${p.addTrigger}% tp ${p.takeProfit}%`
              : r.bot.type === 'dca'
                ? `dca so ${p.deviation}% tp ${p.takeProfit}%${p.trailingDeviation ? ` trailing ${p.trailingDeviation}%` : ''}`
                : `grid ${p.lower}-${p.upper} x${p.grids}`;
        return `${name}: live ${Number(r.live.realized).toFixed(4)} (${r.live.cycles} cycles), backtest ${Number(r.backtest.realized).toFixed(4)} (${r.backtest.cycles}), ${r.gapPct >= 0 ? '+' : ''}${r.gapPct.toFixed(2)} %`;
      }),
    };
  }
  out.total = `live ${live.toFixed(2)}, backtest ${backtest.toFixed(2)}, ${(((backtest - live) / Math.abs(live)) * 100).toFixed(2)} %`;
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(await measureParity(Number(process.argv[2] ?? 7)), null, 2));
