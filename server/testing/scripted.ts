import { SimulatedMarket } from '../market/simulated.ts';

/**
 * The simulated market with prices a test sets by hand: a price path for engine replays and API tests
 * (the symbols, ticks and steps are the simulated market's). Unset symbols follow the simulation.
 */
export class ScriptedMarket extends SimulatedMarket {
  private readonly fixed = new Map<string, string>();

  set(symbol: string, price: string): void {
    this.info(symbol); // an unknown symbol is a mistake in the test
    this.fixed.set(symbol, price);
  }

  private readonly silent = new Set<string>();

  /** The pair's exchange stops answering its price (every read throws), until `speak`. */
  silence(symbol: string): void {
    this.info(symbol);
    this.silent.add(symbol);
  }

  speak(symbol: string): void {
    this.silent.delete(symbol);
  }

  override priceAt(symbol: string, ms: number): string {
    if (this.silent.has(symbol)) throw new Error(`no price for ${symbol}: the exchange does not answer`);
    return this.fixed.get(symbol) ?? super.priceAt(symbol, ms);
  }
}
