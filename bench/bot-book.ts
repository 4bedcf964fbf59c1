// 10,000 running martin bots over 20 symbols: one round of price updates (every symbol moves once),
// every bot evaluated, intents produced for those whose triggers are crossed, nothing filled.
import { money } from '../strategy/money.ts';
import { BotBook } from '../server/engine/bot-book.ts';
import { botId } from '../strategy/types.ts';
import { decideMartin, initialMartinState } from '../strategy/martin/strategy.ts';
import { median } from './stats.ts';

/** Median ms of one round of 20 symbol updates over 10,000 bots, and the intents per round. */
export function measureBotBook(rounds = 200): { medianMs: number; bots: number; intentsPerRound: number } {
  const market = { tickSize: money('0.01'), stepSize: money('0.00001'), minAmount: money('0.00001'), minCost: money('5'), feeRate: money('0.001') };
  const view = { params: { investment: '3100', firstOrder: '100', multiplier: '2', maxPositions: 5, addTrigger: '2', takeProfit: '1.5', repeat: true }, market };
  const book = new BotBook();
  const symbols = Array.from({ length: 20 }, (_, i) => `S${i}/USDT`);
  const prices = symbols.map(() => 1000);
  for (let b = 0; b < 10_000; b++) {
    const symbol = symbols[b % 20]!;
    const entry = money(String(950 + (b % 100)));
    const opened = decideMartin(initialMartinState(botId(`b${b}`)), { type: 'PriceTicked', price: entry }, view).state;
    const state = decideMartin(opened, { type: 'OrderFilled', clientOrderId: opened.pending!.id, side: 'buy', price: entry, amount: money('0.1') }, view).state;
    book.put(symbol, state, view);
  }
  let seed = 1;
  const rand = () => {
    seed = (seed * 16807) % 2147483647;
    return seed / 2147483647;
  };
  const times: number[] = [];
  let intents = 0;
  for (let r = 0; r < rounds; r++) {
    const t = performance.now();
    for (let s = 0; s < 20; s++) {
      prices[s] = Math.round(prices[s]! * (1 + (rand() - 0.5) * 0.004) * 100) / 100;
      intents += book.onPrice(symbols[s]!, money(String(prices[s]))).length;
    }
    times.push(performance.now() - t);
  }
  return { medianMs: Math.round(median(times) * 1000) / 1000, bots: book.size(), intentsPerRound: Math.round(intents / rounds) };
}
