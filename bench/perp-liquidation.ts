// Perpetual futures on one price round: the liquidation scan of 10,000 open positions of one contract
// (strategy/perpetual/liquidation.ts `LiquidationBook`), and a funding settlement's arithmetic for them
// (each position's payment and its margin after it). Seeded positions: 0.001-0.5 BTC entered within 1 % of the price,
// 2-50x, long and short; the mark walks 2,000 rounds of a seeded path of ±0.1 % steps from 60,000, each
// round's liquidated positions opened again at the mark so the book stays full.
import { money } from '../strategy/money.ts';
import { seeded } from '../server/market/random.ts';
import { fundingPayment } from '../strategy/perpetual/funding.ts';
import { LiquidationBook } from '../strategy/perpetual/liquidation.ts';
import { type IsolatedPosition, liquidationPrice } from '../strategy/perpetual/margin.ts';
import { BTCUSDT_TIERS } from '../strategy/perpetual/tiers.ts';
import { median, percentile, round } from './stats.ts';

const POSITIONS = 10_000;
const ROUNDS = 2000;

export function measurePerpetualRounds() {
  const random = seeded(20_261_129);
  const positions = new Map<string, IsolatedPosition>();
  const book = new LiquidationBook();
  const open = (id: string, at: number) => {
    const side = random() < 0.5 ? 'long' : 'short';
    const size = money(Math.max(1, Math.floor(random() * 500))).div(1000);
    const entry = money(Math.round(at * (0.99 + random() * 0.02)));
    const leverage = 2 + Math.floor(random() * 49);
    const p: IsolatedPosition = { side, size, entry, margin: size.mul(entry).div(leverage) };
    positions.set(id, p);
    book.put(id, side, liquidationPrice(p, BTCUSDT_TIERS));
  };
  for (let i = 0; i < POSITIONS; i++) open(`p${i}`, 60_000);
  const scans: number[] = [];
  let liquidated = 0;
  let most = 0;
  let price = 60_000;
  // A warm-up of the scan (the JIT's first calls), not counted.
  for (let r = 0; r < 200; r++) book.crossed(money(60_000));
  for (let r = 0; r < ROUNDS; r++) {
    price = Math.round(price * (1 + (random() - 0.5) * 0.002) * 100) / 100;
    const mark = money(price.toFixed(2));
    const began = performance.now();
    const out = book.crossed(mark);
    scans.push(performance.now() - began);
    liquidated += out.length;
    most = Math.max(most, out.length);
    for (const id of out) open(id, price);
  }
  // A funding settlement: every position's payment at the mark, its margin after it.
  const rate = money('0.0001');
  const mark = money(price.toFixed(2));
  const settlements: number[] = [];
  for (let k = 0; k < 5; k++) {
    const began = performance.now();
    for (const p of positions.values()) p.margin = p.margin.plus(fundingPayment(p.side, p.size, mark, rate));
    settlements.push(performance.now() - began);
  }
  return {
    target: 'a liquidation scan of 10,000 positions in one price round <= 5 ms; a funding settlement of 10,000 positions',
    positions: book.size,
    rounds: ROUNDS,
    liquidated,
    mostInOneRound: most,
    scanMs: { p50: round(median(scans), 4), p95: round(percentile(scans, 0.95), 4), max: round(Math.max(...scans), 3) },
    settlementMs: { median: round(median(settlements), 2), runs: settlements.map((s) => round(s, 2)) },
    note: 'the arithmetic only, in this thread; the venue writes the positions and ledger lines in one transaction per contract',
  };
}

if (import.meta.main) console.log(JSON.stringify(measurePerpetualRounds(), null, 2));
