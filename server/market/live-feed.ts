import type Decimal from 'decimal.js';
import type { Exchange } from 'ccxt';
import type { CandleData } from '../../contract/market.ts';
import { dec } from './exchange-number.ts';
import type { Timeframe } from './symbols.ts';

/** What the feed needs of a public ccxt instance (no keys). */
export type PublicCcxt = Pick<Exchange, 'fetchTicker' | 'fetchTickers' | 'fetchOHLCV' | 'has'>;
export type PublicFactory = (exchange: string) => Promise<PublicCcxt>;

export interface LiveTicker {
  price: Decimal;
  /** 24 h change in percent, when the exchange gives it. */
  change24h: Decimal | null;
  at: number;
}

/**
 * Live prices through ccxt's public endpoints: one feed per exchange and symbol,
 * shared by every bot and user. Callers asking at the same time share one request, and an answer is
 * reused for `ttlMs`, so 10,000 bots on one pair cost one ticker call per round, not 10,000.
 */
/** Told of every ticker call's outcome: whether the exchange is reachable (market/exchange-health.ts). */
export interface FeedHealth {
  ok(exchange: string): void;
  failed(exchange: string, error: unknown): void;
}

export class LiveFeed {
  private readonly instances = new Map<string, Promise<PublicCcxt>>();
  private readonly cache = new Map<string, LiveTicker>();
  private readonly inflight = new Map<string, Promise<LiveTicker>>();

  private readonly factory: PublicFactory;
  private readonly options: { ttlMs?: number; now?: () => number; health?: FeedHealth };

  constructor(factory: PublicFactory, options: { ttlMs?: number; now?: () => number; health?: FeedHealth } = {}) {
    this.factory = factory;
    this.options = options;
  }

  private instance(exchange: string): Promise<PublicCcxt> {
    let found = this.instances.get(exchange);
    if (!found) {
      found = this.factory(exchange).catch((error: unknown) => {
        this.instances.delete(exchange);
        throw error;
      });
      this.instances.set(exchange, found);
    }
    return found;
  }

  async ticker(exchange: string, symbol: string): Promise<LiveTicker> {
    const key = `${exchange} ${symbol}`;
    const now = (this.options.now ?? Date.now)();
    const cached = this.cache.get(key);
    if (cached && now - cached.at < (this.options.ttlMs ?? 2000)) return cached;
    let pending = this.inflight.get(key);
    if (!pending) {
      pending = (async () => {
        let t: Awaited<ReturnType<PublicCcxt['fetchTicker']>>;
        try {
          t = await (await this.instance(exchange)).fetchTicker(symbol);
        } catch (error) {
          this.options.health?.failed(exchange, error);
          throw error;
        }
        this.options.health?.ok(exchange);
        const price = dec(t.last) ?? dec(t.close);
        if (!price || price.lte(0)) throw new Error(`${exchange} gave no price for ${symbol}`);
        const ticker = { price, change24h: dec(t.percentage), at: (this.options.now ?? Date.now)() };
        this.cache.set(key, ticker);
        return ticker;
      })().finally(() => this.inflight.delete(key));
      this.inflight.set(key, pending);
    }
    return pending;
  }

  /** The last ticker read of the pair, however old (undefined: none yet in this process). */
  lastKnown(exchange: string, symbol: string): LiveTicker | undefined {
    return this.cache.get(`${exchange} ${symbol}`);
  }

  async price(exchange: string, symbol: string): Promise<Decimal> {
    return (await this.ticker(exchange, symbol)).price;
  }

  /** Candles oldest first, as exact decimal strings. */
  async candles(exchange: string, symbol: string, timeframe: Timeframe, limit: number): Promise<CandleData[]> {
    const rows = await (await this.instance(exchange)).fetchOHLCV(symbol, timeframe, undefined, limit);
    return rows
      .map((r) => ({
        time: Number(r[0]),
        open: dec(r[1])?.toFixed() ?? '0',
        high: dec(r[2])?.toFixed() ?? '0',
        low: dec(r[3])?.toFixed() ?? '0',
        close: dec(r[4])?.toFixed() ?? '0',
        volume: dec(r[5])?.toFixed() ?? '0',
      }))
      .sort((a, b) => a.time - b.time);
  }
}
