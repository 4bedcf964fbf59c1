import type { Db } from '../db/connect.ts';
import { encodeGrid } from '../../strategy/grid/state-codec.ts';
import { initialGridState } from '../../strategy/grid/strategy.ts';
import { botId } from '../../strategy/types.ts';

/**
 * A trader and their running grid on the fake Binance (exchange 2, BTC/USDT): levels 60,000 to 70,000
 * by 2,500, 1,000 USDT, a stop at 55,000; not started (the engine's first round opens it at the price).
 */
export async function gridOf(db: Db, account: string, sn: string): Promise<{ userId: string; id: string }> {
  const user = await db
    .insertInto('users')
    .values({ sn, account, password_hash: null, payment_hash: null, nickname: 'n', email: '', mobile: '', address: null, avatar: '', referrer_id: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  const { id } = await db
    .insertInto('bots')
    .values({
      user_id: String(user.id),
      exchange_id: 2,
      symbol: 'BTC/USDT',
      type: 'grid',
      name: `${account} grid`,
      status: 'running',
      params: JSON.stringify({ investment: '1000', lower: '60000', upper: '70000', grids: 4, spacing: 'arithmetic', stopLoss: '55000' }),
      state: JSON.stringify(encodeGrid(initialGridState(botId('x')))),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { userId: String(user.id), id: String(id) };
}
