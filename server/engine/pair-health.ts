import { sql } from 'kysely';
import type { Db } from '../db/connect.ts';
import { leaveNotice } from '../events/notice.ts';
import { inTransaction } from '../events/outbox.ts';
import { exchangeByCode } from '../exchanges/catalog.ts';
import { tradersOnPair } from '../store/bot-lists.ts';

/**
 * The traders' side of a pair without a fresh price (the engine's stale pairs: no price for
 * STALE_PRICE_MS). Every process decides on its own whether its bots on a pair may open, but the traders
 * are told once per episode, whichever process sees it first: the episode is a row of `pair_health`, and
 * only the process whose insert (or removal) it was leaves the notices. A row left behind by a process
 * that died before it saw the price back would silence the next episode: one older than an hour is taken
 * as a new episode.
 */

/** The traders with running bots on the pair, each once. */
async function tradersOn(tx: Db, exchange: string, symbol: string): Promise<string[]> {
  const id = exchangeByCode(exchange)?.id;
  return id === undefined ? [] : tradersOnPair(tx, { exchangeId: id, symbol });
}

const wordsOf = (exchange: string, symbol: string) => ({ exchange, name: exchangeByCode(exchange)?.name ?? exchange, symbol });

/**
 * A pair found stale since `since`: the first finding of its episode warns every trader with running bots
 * on it (`price_stale`). Answers how many were told (0: another process told them already).
 */
export async function pairStale(db: Db, pair: { exchange: string; symbol: string; since: Date }): Promise<number> {
  return inTransaction(db, async (tx) => {
    const { rows } = await sql<{ symbol: string }>`
      insert into pair_health (exchange, symbol, stale_since) values (${pair.exchange}, ${pair.symbol}, ${pair.since})
      on conflict (exchange, symbol) do update set stale_since = excluded.stale_since
        where pair_health.stale_since < now() - interval '1 hour'
      returning symbol`.execute(tx);
    if (rows.length === 0) return 0;
    const traders = await tradersOn(tx, pair.exchange, pair.symbol);
    const detail = { ...wordsOf(pair.exchange, pair.symbol), since: pair.since.toISOString() };
    for (const userId of traders) await leaveNotice(tx, userId, { kind: 'warning', code: 'price_stale', detail });
    return traders.length;
  });
}

/**
 * A stale pair's price back and a reconciliation round passed: the episode ends, and its traders are told
 * their bots open again (`price_back`). Answers how many were told (0: no episode, or another process ended it).
 */
export async function pairBack(db: Db, pair: { exchange: string; symbol: string }): Promise<number> {
  return inTransaction(db, async (tx) => {
    const ended = await tx.deleteFrom('pair_health').where('exchange', '=', pair.exchange).where('symbol', '=', pair.symbol).returning('symbol').execute();
    if (ended.length === 0) return 0;
    const traders = await tradersOn(tx, pair.exchange, pair.symbol);
    for (const userId of traders) await leaveNotice(tx, userId, { kind: 'notice', code: 'price_back', detail: wordsOf(pair.exchange, pair.symbol) });
    return traders.length;
  });
}
