import { describe, expect, it } from 'vitest';
import { openTestDb } from '../testing/test-support.ts';
import { money } from '../../strategy/money.ts';
import type { ClientOrderId } from '../../strategy/types.ts';
import { paperMarket } from './paper-fill.ts';
import { PaperVenue } from './paper-venue.ts';

/**
 * One trader's Paper orders at once (several bots opening in the same engine round): each order locks
 * the trader's balance rows, and the first buy of a coin creates its row. Locked row by row, an order
 * that had not seen a row another one had just created took it last, while a later order took it
 * first: deadlock detected, and one of the orders failed (seen at 2,000 bots, bench/bots-per-process.ts);
 * or it set its own amount over the row: a fill lost from the books. PostgreSQL only: the embedded
 * PGlite has one connection, so its transactions never overlap.
 */
describe('Paper orders of one trader at once on PostgreSQL', () => {
  const kind = 'postgres';
  it('all go through, new coins included, and the balances add up', { timeout: 60_000 }, async () => {
    const { db, drop } = await openTestDb(kind);
    try {
      const user = await db
        .insertInto('users')
        .values({ sn: '60000001', account: `locks${kind}`, password_hash: null, payment_hash: null, nickname: 'n', email: '', mobile: '', address: null, avatar: '', referrer_id: null })
        .returning('id')
        .executeTakeFirstOrThrow();
      const venue = new PaperVenue(db, String(user.id), { market: async (symbol) => paperMarket(symbol, '0.01', '0.001'), price: async () => money('10') });
      const errors: string[] = [];
      let placed = 0;
      // Each round buys coins the trader has never held: 4 orders on each of 3 new coins, all at once.
      for (let round = 0; round < 6; round++) {
        await Promise.all(
          Array.from({ length: 12 }, (_, i) =>
            venue
              .placeMarketOrder({ clientOrderId: `lock-${round}-${i}` as ClientOrderId, symbol: `C${round}X${i % 3}/USDT`, side: 'buy', quote: money('10') })
              .then(() => void placed++)
              .catch((error: Error) => void errors.push(error.message)),
          ),
        );
      }
      expect(errors).toEqual([]);
      expect(placed).toBe(72);
      // 10,000 USDT less 72 x 10; each coin 4 x (1 - the 0.1 % fee).
      expect((await venue.balance('USDT')).toFixed()).toBe('9280');
      const coins = (await venue.balances()).filter((b) => b.currency !== 'USDT');
      expect(coins).toHaveLength(18);
      expect(coins.filter((b) => b.amount !== '3.996')).toEqual([]);
    } finally {
      await drop();
    }
  });
});
