import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/connect.ts';
import { botTypes, typeTemplates } from '../../market/catalog.ts';
import type { Trading } from '../../trading.ts';
import { ticker } from '../../market/tickers.ts';
import { endAtPrice } from '../../../contract/candles.ts';
import { fail } from '../../errors.ts';
import { PAGE_SIZE_DEFAULT } from '../../../contract/rules.ts';
import { withReserved } from '../../services/reserved-capital.ts';
import { registerCalls } from '../route.ts';
import { futuresMarkets } from '../../exchanges/futures.ts';
import { exchangeByCode } from '../../exchanges/catalog.ts';
import { resetPaperAccount, sweepDust } from '../../exchanges/paper-venue.ts';
import { money } from '../../../strategy/money.ts';
import { indicator } from '../../market/indicators.ts';
import type { SymbolInfo } from '../../../contract/market.ts';
import { botTypesBuilt } from '../../../contract/bots.ts';
import { bannerList } from '../../market/banners.ts';
import { userRank } from '../../services/rank.ts';
import { botRank } from '../../services/bot-rank.ts';

/** Market data from the shared feed, and the strategy types with their ready-made templates. */
export function marketRoutes(app: FastifyInstance, db: Db, trading: Trading): void {
  const { feed, now } = trading;
  registerCalls(app, db, {
    marketPrice: async ({ query }) => {
      const symbols = query.symbols.split(',');
      const known = new Set(feed.symbols().map((s) => s.symbol));
      if (symbols.some((s) => !known.has(s))) throw fail('OrderInvalidPair');
      const t = now();
      return symbols.map((s) => ticker(feed, s, t));
    },
    // One exchange's pairs: Paper from the simulated market, a live exchange through ccxt's public endpoints.
    marketSymbols: async ({ query }) => {
      const exchange = query.exchange ?? 'paper';
      const list = await trading.symbols(exchange, { symbol: query.symbol, history: query.history === '1' ? { timeframe: query.timeframe ?? '1h', limit: 100 } : undefined });
      const name = query.indicator;
      return Promise.all(
        list.map(async (s): Promise<SymbolInfo> => {
          // One snapshot: the chart's last close is the price the header shows.
          const out: SymbolInfo = s.history ? { ...s, history: endAtPrice(s.history, s.price) } : { ...s };
          if (name && out.history)
            out.indicator = {
              name,
              values: indicator(
                name,
                out.history.map((c) => Number(c.close)),
              ),
            };
          if (query.latest === '1') {
            // The list's sparklines: the last day by the hour (a live exchange that fails one just shows none).
            const day = await trading.candles(exchange, s.symbol, '1h', 24).catch(() => null);
            if (day) out.spark = day.map((c) => Number(c.close));
          }
          return out;
        }),
      );
    },
    userAsset: async ({ session, query }) => {
      const exchange = query.exchange ?? 'paper';
      const assets = await trading.assets(session.userId, exchange);
      return { exchange: assets.exchange, balances: await withReserved(db, trading, session.userId, exchange, assets.balances) };
    },
    paperReset: async ({ session, body }) => {
      const code = body?.exchange ?? 'paper';
      const ex = exchangeByCode(code);
      if (!ex || !(code === 'paper' || ex.simulatedOf)) throw fail('ApiExchangeUnsupported');
      await trading.assets(session.userId, code); // bound first (ApiNotBound otherwise)
      await resetPaperAccount(db, session.userId, ex.id);
      return trading.assets(session.userId, code);
    },
    paperSweepDust: async ({ session, body }) => {
      const code = body?.exchange ?? 'paper';
      const ex = exchangeByCode(code);
      if (!ex || !(code === 'paper' || ex.simulatedOf)) throw fail('ApiExchangeUnsupported');
      await trading.assets(session.userId, code); // bound first (ApiNotBound otherwise)
      const swept = await sweepDust(db, session.userId, trading.simulatedSource(code), ex.id);
      const total = swept.reduce((sum, s) => sum.plus(s.quote), money(0));
      return { exchange: code, swept, total: total.toFixed(), balances: (await trading.assets(session.userId, code)).balances };
    },
    marketFutures: async ({ query }) => {
      const ex = exchangeByCode(query.exchange);
      if (!ex) throw fail('ApiExchangeUnsupported');
      // Paper simulates spot only.
      if (ex.code === 'paper') return { exchange: ex.code, supported: false, list: [] };
      try {
        return { exchange: ex.code, supported: true, list: await futuresMarkets(ex.code) };
      } catch {
        throw fail('ServiceUnavailable');
      }
    },
    indexBanners: async ({ lang }) => bannerList(lang),
    marketUserRank: ({ session, query }) => userRank(db, session.userId, { page: query.page ?? 1, limit: query.limit ?? PAGE_SIZE_DEFAULT, period: query.period ?? '30d', mode: query.mode ?? 'live' }),
    // The strategy rank: bots by total ROI (floating PnL included), their parameters to copy, never whose they are.
    marketBotRank: ({ session, query }) =>
      botRank(db, trading, session.userId, { page: query.page ?? 1, limit: query.limit ?? PAGE_SIZE_DEFAULT, period: query.period ?? '30d', mode: query.mode ?? 'live' }),
    // Each built type says whether its orders rest on the exchange here (RESTING_ORDERS): the grid form
    // tells what resting saves only where it is so.
    marketBotTypes: async ({ lang }) =>
      botTypes(lang).map((type) => ((botTypesBuilt as readonly string[]).includes(type.code) ? { ...type, resting: trading.restingTypes.includes(type.code) } : type)),
    marketTypeBots: async ({ lang, query }) => typeTemplates(lang, query.type_id === undefined ? undefined : Number(query.type_id), query.page ?? 1, query.page_size ?? PAGE_SIZE_DEFAULT),
  });
}
