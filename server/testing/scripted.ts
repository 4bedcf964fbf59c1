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

  override priceAt(symbol: string, ms: number): string {
    return this.fixed.get(symbol) ?? super.priceAt(symbol, ms);
  }
}
