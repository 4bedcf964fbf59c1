/** What the market offers: pairs and prices, exchanges, strategy types and templates, banners, perpetuals. */
import { z } from 'zod';
import { botTypesBuilt, symbolSchema } from './bots.ts';
import type { Call } from './call.ts';
import { decimal, exchangeCode, idInput, page, pageQuery, pageSizeQuery } from './fields.ts';

/** A symbol's latest price and its change over 24 hours (percent, 2 decimals), exact decimal strings. */
export const tickerSchema = z.strictObject({ symbol: z.string(), price: decimal, change24h: decimal });
export type Ticker = z.infer<typeof tickerSchema>;
export const candleSchema = z.strictObject({ time: z.number().int(), open: decimal, high: decimal, low: decimal, close: decimal, volume: decimal });
export type CandleData = z.infer<typeof candleSchema>;
export const symbolInfoSchema = z.strictObject({
  ...tickerSchema.shape,
  exchange: z.string(),
  tickSize: decimal,
  stepSize: decimal,
  /** Smallest order amount (base) and cost (quote), and the taker fee rate: what a bot's orders must meet. */
  minAmount: decimal,
  minCost: decimal,
  feeRate: decimal,
  /** The maker fee rate (a resting limit order's fill), where the exchange's market says it; absent: the taker's. */
  makerFeeRate: decimal.optional(),
  /** Candles of the asked timeframe, oldest first, when `history` is 1. */
  history: z.array(candleSchema).optional(),
  /** The last 24 hourly closes, oldest first, when `latest` is 1 (the list's sparklines). */
  spark: z.array(z.number()).optional(),
  /** The asked indicator over `history`'s closes, one value per candle (null until enough candles). */
  indicator: z.strictObject({ name: z.enum(['ma20', 'ema20', 'rsi14']), values: z.array(z.number().nullable()) }).optional(),
});
export type SymbolInfo = z.infer<typeof symbolInfoSchema>;
/** An exchange a trader can bind. */
export const exchangeInfoSchema = z.strictObject({
  id: z.number().int(),
  code: z.string(),
  name: z.string(),
  logo: z.string(),
  /** Whether the API key comes with a passphrase (OKX, Bitget). */
  passphrase: z.boolean(),
  spot: z.boolean(),
  /** Whether paper trading (simulation) is offered on it. */
  simulation: z.boolean(),
  /** A simulated account on this live exchange's prices: the live exchange's code (absent: a real exchange, or Paper). */
  simulatedOf: z.string().optional(),
});
export type ExchangeInfo = z.infer<typeof exchangeInfoSchema>;
/** A strategy type (docs/product.md §3). */
export const botTypeSchema = z.strictObject({
  id: z.number().int(),
  /** A bot type the API builds, or one the catalog names that has no bots of its own (the AI proposes martin and grid bots; arbitrage is not built). */
  code: z.enum([...botTypesBuilt, 'ai', 'arbitrage']),
  name: z.string(),
  /** The spec's family: grid trading, DCA, arbitrage, custom. */
  category: z.enum(['grid', 'dca', 'arbitrage', 'custom']),
  description: z.string(),
  /** Whether bots of this type can be created yet. */
  available: z.boolean(),
  /** Whether its bots' orders rest on the exchange as limit orders, filled at their price as a maker (the server's RESTING_ORDERS); absent on a type with no bots of its own. */
  resting: z.boolean().optional(),
});
export type BotType = z.infer<typeof botTypeSchema>;
/** A ready-made parameter set of a strategy type. */
export const botTemplateSchema = z.strictObject({
  id: z.number().int(),
  typeId: z.number().int(),
  name: z.string(),
  symbol: z.string(),
  params: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
});
export type BotTemplate = z.infer<typeof botTemplateSchema>;
/** A home banner: localized texts and where a tap goes (an app path). */
export const bannerSchema = z.strictObject({ id: z.string(), title: z.string(), subtitle: z.string(), link: z.string(), tone: z.enum(['blue', 'green', 'orange']) });
export type Banner = z.infer<typeof bannerSchema>;
/** A USDT-margined perpetual, read only. */
export const futuresRowSchema = z.strictObject({
  symbol: z.string(),
  price: decimal.nullable(),
  change24h: decimal.nullable(),
  /** Funding rate of the current period, as a fraction (0.0001 = 0.01%). */
  fundingRate: decimal.nullable(),
  nextFundingTime: z.number().int().nullable(),
});
export type FuturesRow = z.infer<typeof futuresRowSchema>;

export const marketCalls = {
  marketSymbols: {
    method: 'GET',
    path: '/market/symbols',
    query: z.strictObject({
      exchange: exchangeCode.optional(),
      latest: z.enum(['0', '1']).optional(),
      indicator: z.enum(['ma20', 'ema20', 'rsi14']).optional(),
      history: z.enum(['0', '1']).optional(),
      timeframe: z.enum(['1m', '5m', '15m', '1h', '4h', '1d']).optional(),
      // Beyond the spec's fields: one pair only, so a chart does not fetch every pair's history.
      symbol: symbolSchema.optional(),
    }),
    answer: z.array(symbolInfoSchema),
  },
  marketExchanges: { method: 'GET', path: '/market/exchanges', answer: z.strictObject({ exchanges: z.array(exchangeInfoSchema), ips: z.array(z.string()) }) },
  marketBotTypes: { method: 'GET', path: '/market/botTypes', answer: z.array(botTypeSchema) },
  marketTypeBots: {
    method: 'GET',
    path: '/market/typeBots',
    query: z.strictObject({ type_id: idInput.optional(), page: pageQuery, page_size: pageSizeQuery, local: z.enum(['0', '1']).optional() }),
    answer: page(botTemplateSchema),
  },
  marketPrice: {
    method: 'GET',
    path: '/market/price',
    query: z.strictObject({ symbols: z.string().regex(/^[A-Z0-9]{2,20}\/[A-Z0-9]{2,20}(,[A-Z0-9]{2,20}\/[A-Z0-9]{2,20}){0,49}$/, 'format') }),
    answer: z.array(tickerSchema),
  },
  indexBanners: { method: 'GET', path: '/index/banners', answer: z.array(bannerSchema) },
  // USDT-margined perpetuals, read only.
  marketFutures: {
    method: 'GET',
    path: '/market/futures',
    query: z.strictObject({ exchange: exchangeCode }),
    answer: z.strictObject({ exchange: z.string(), supported: z.boolean(), list: z.array(futuresRowSchema) }),
  },
} as const satisfies Record<string, Call>;
