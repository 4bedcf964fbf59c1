import type { Portfolio, PortfolioAccount, PortfolioCoin, ExchangeBalance } from '../../contract/exchanges.ts';
import type { Db } from '../db/connect.ts';
import { exchangeById } from '../exchanges/catalog.ts';
import { money } from '../../strategy/money.ts';
import type { EngineSide, MarketData, Venues } from '../trading.ts';
import { reservedByBots } from './reserved-capital.ts';

/** How long one account's balance (or one coin's price) may take before the account shows as unavailable. */
export const PORTFOLIO_TIMEOUT_MS = 8_000;
const MAX_COINS = 50;

function within<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timeout')), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/** A coin's USDT price on an account's exchange now; USDT is 1; null when the exchange has no such pair or cannot answer. */
async function usdtPrice(trading: MarketData & Venues & EngineSide, exchange: string, currency: string, ms: number): Promise<string | null> {
  if (currency === 'USDT') return '1';
  try {
    return money(await within(trading.prices.price(exchange, `${currency}/USDT`), ms)).toFixed();
  } catch {
    return null;
  }
}

async function accountOf(db: Db, trading: MarketData & Venues & EngineSide, userId: string, exchange: string, kind: PortfolioAccount['kind'], ms: number): Promise<PortfolioAccount> {
  let balances: ExchangeBalance[];
  try {
    balances = (await within(trading.assets(userId, exchange), ms)).balances;
  } catch {
    // Not read is not zero: the account shows as unavailable and stays out of the sums.
    return { exchange, kind, status: 'unavailable', equity: null, available: null, coins: [], coinCount: 0 };
  }
  const held = balances.filter((b) => money(b.total).gt(0) || b.currency === 'USDT');
  const coins: PortfolioCoin[] = await Promise.all(
    held.map(async (b) => {
      const price = await usdtPrice(trading, exchange, b.currency, ms);
      return { currency: b.currency, free: money(b.free).toFixed(), total: money(b.total).toFixed(), price, value: price === null ? null : money(b.total).mul(price).toDecimalPlaces(8).toFixed() };
    }),
  );
  coins.sort((x, y) => money(y.value ?? '-1').cmp(money(x.value ?? '-1')) || x.currency.localeCompare(y.currency));
  const equity = coins.reduce((s, c) => s.plus(money(c.value ?? '0')), money(0));
  // What a new bot can use: the free USDT the trader's running and paused bots have not reserved.
  const usdt = balances.find((b) => b.currency === 'USDT');
  const left = money(usdt?.free ?? '0').minus(await reservedByBots(db, trading, userId, exchange, 'USDT'));
  return { exchange, kind, status: 'ok', equity: equity.toFixed(), available: (left.isNegative() ? money(0) : left).toFixed(), coins: coins.slice(0, MAX_COINS), coinCount: coins.length };
}

/**
 * user/portfolio: the trader's accounts (Paper, simulated accounts, bound exchanges: the
 * trader's own bindings only), each with its coins valued in USDT at the price now and the free USDT
 * its bots have not reserved.
 * An account read fails alone: it is `unavailable`, never 0, and the others still answer.
 */
export async function portfolio(db: Db, trading: MarketData & Venues & EngineSide, userId: string, ms = PORTFOLIO_TIMEOUT_MS): Promise<Portfolio> {
  const bound = await db.selectFrom('exchange_keys').select('exchange_id').where('user_id', '=', userId).orderBy('exchange_id').execute();
  const accounts = await Promise.all(
    bound.flatMap((b) => {
      const ex = exchangeById(b.exchange_id);
      if (!ex) return [];
      const kind: PortfolioAccount['kind'] = ex.code === 'paper' ? 'paper' : ex.simulatedOf ? 'simulated' : 'live';
      return [accountOf(db, trading, userId, ex.code, kind, ms)];
    }),
  );
  let live = money(0);
  let simulation = money(0);
  for (const a of accounts) {
    if (a.equity === null) continue;
    if (a.kind === 'live') live = live.plus(a.equity);
    else simulation = simulation.plus(a.equity);
  }
  return {
    live: live.toFixed(),
    simulation: simulation.toFixed(),
    total: live.plus(simulation).toFixed(),
    unavailable: accounts.filter((a) => a.status === 'unavailable').length,
    accounts,
  };
}
