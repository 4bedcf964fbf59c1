import type Decimal from 'decimal.js';
import { sql } from 'kysely';
import type { Db } from '../db/connect.ts';
import { money } from '../../strategy/money.ts';
import { fundingPayment } from '../../strategy/perpetual/funding.ts';
import { liquidate } from '../../strategy/perpetual/liquidation.ts';
import { type IsolatedPosition, liquidatedAt } from '../../strategy/perpetual/margin.ts';
import { applyFill, leverageFits } from '../../strategy/perpetual/position.ts';
import type { MarginTier } from '../../strategy/perpetual/tiers.ts';

/**
 * Paper's USDT-margined perpetuals, the account side (strategy/perpetual/README.md for the rules): a futures
 * wallet apart from the spot balances, one isolated position per contract (one-way mode), and a ledger
 * line for every change. Lines of the wallet: `transfer` (from or to spot), `margin_in` (set aside for a
 * position, negative), `margin_out` (given back), `realised`, `fee` (negative); lines of a position's
 * margin: `funding` and `liquidation` (the margin lost); `insurance`: the venue's own line (no user).
 * So the wallet is the sum of its lines, and a position's margin what its margin lines moved.
 * Simulated money only: nothing here touches a trader's real balances, fuel or rewards.
 */

/** Binance USD-M's base fee rates (regular users): the taker's 0.05 %, the maker's 0.02 %. */
export const PERP_TAKER_FEE_RATE = money('0.0005');
export const PERP_MAKER_FEE_RATE = money('0.0002');

type Account = { userId: string; exchangeId: number };
/** A line of the wallet (funding and liquidation lines are a margin's, written where they happen). */
type Line = { symbol: string | null; kind: 'transfer' | 'fee' | 'realised' | 'margin_in' | 'margin_out'; amount: Decimal };

/** Money at the ledger's scale (numeric(38,18)): every figure stored is the one the sums are made of. */
const stored = (d: Decimal) => d.toDecimalPlaces(18).toFixed();

/** The account's futures wallet, under its lock for the transaction (and the spot account's: transfers touch both). */
async function lockWallet(tx: Db, a: Account): Promise<Decimal> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`paper:${a.exchangeId}:${a.userId}`}, 0))`.execute(tx);
  const row = await tx.selectFrom('paper_perp_wallets').select('balance').where('user_id', '=', a.userId).where('exchange_id', '=', a.exchangeId).forUpdate().executeTakeFirst();
  return money(row?.balance ?? '0');
}

async function writeWallet(tx: Db, a: Account, balance: Decimal, lines: readonly Line[]): Promise<void> {
  const value = stored(balance);
  await tx
    .insertInto('paper_perp_wallets')
    .values({ user_id: a.userId, exchange_id: a.exchangeId, balance: value })
    .onConflict((oc) => oc.columns(['user_id', 'exchange_id']).doUpdateSet({ balance: value }))
    .execute();
  const kept = lines.filter((l) => !l.amount.isZero());
  if (kept.length > 0)
    await tx
      .insertInto('paper_perp_ledger')
      .values(kept.map((l) => ({ user_id: a.userId, exchange_id: a.exchangeId, symbol: l.symbol, kind: l.kind, amount: stored(l.amount) })))
      .execute();
}

/**
 * Moves USDT between the spot balance and the futures wallet (`amount` > 0: to futures; < 0: back to spot):
 * only what is free there (spot: not held by an open order; futures: not set aside as margin), else `short`.
 */
export async function transferPerpetual(db: Db, a: Account, amount: Decimal): Promise<'done' | 'short'> {
  return db.transaction().execute(async (tx) => {
    const wallet = await lockWallet(tx, a);
    const spot = await tx
      .selectFrom('paper_balances')
      .select(['amount', 'locked'])
      .where('user_id', '=', a.userId)
      .where('exchange_id', '=', a.exchangeId)
      .where('currency', '=', 'USDT')
      .forUpdate()
      .executeTakeFirst();
    const spotFree = spot ? money(spot.amount).minus(spot.locked) : money(0);
    if (amount.gt(spotFree) || amount.neg().gt(wallet)) return 'short';
    const spotAfter = money(spot?.amount ?? '0').minus(amount);
    await tx
      .insertInto('paper_balances')
      .values({ user_id: a.userId, exchange_id: a.exchangeId, currency: 'USDT', amount: stored(spotAfter) })
      .onConflict((oc) => oc.columns(['user_id', 'exchange_id', 'currency']).doUpdateSet({ amount: stored(spotAfter) }))
      .execute();
    await writeWallet(tx, a, wallet.plus(amount), [{ symbol: null, kind: 'transfer', amount }]);
    return 'done';
  });
}

const positionOf = (row: { side: string; size: string; entry: string; margin: string } | undefined): IsolatedPosition | null =>
  row ? { side: row.side as 'long' | 'short', size: money(row.size), entry: money(row.entry), margin: money(row.margin) } : null;

export type PerpetualFillResult =
  | { status: 'filled'; position: IsolatedPosition | null; filled: Decimal; fee: Decimal; realised: Decimal }
  | { status: 'refused'; reason: 'leverage'; max: number }
  | { status: 'refused'; reason: 'margin'; needed: Decimal; free: Decimal }
  | { status: 'refused'; reason: 'nothing_to_reduce' };

/**
 * An order's fill on the account's position of a contract, in one transaction under its lock: refused when
 * its leverage passes the tier of the notional it would leave, or when the wallet cannot set aside its
 * margin and fee; a reduce-only order fills only what closes. The fee (the maker's for a resting order's
 * fill, the taker's else) is charged on what filled.
 */
export async function fillPerpetual(
  db: Db,
  a: Account,
  order: { symbol: string; side: 'buy' | 'sell'; amount: Decimal; price: Decimal; leverage: number; reduceOnly?: boolean; maker?: boolean },
  tiers: readonly MarginTier[],
): Promise<PerpetualFillResult> {
  return db.transaction().execute(async (tx) => {
    const wallet = await lockWallet(tx, a);
    const row = await tx
      .selectFrom('paper_perp_positions')
      .select(['side', 'size', 'entry', 'margin'])
      .where('user_id', '=', a.userId)
      .where('exchange_id', '=', a.exchangeId)
      .where('symbol', '=', order.symbol)
      .forUpdate()
      .executeTakeFirst();
    const position = positionOf(row);
    const fill = { side: order.side, amount: order.amount, price: order.price };
    const fits = leverageFits(tiers, position, fill, order.leverage);
    if (!fits.fits) return { status: 'refused', reason: 'leverage', max: fits.max };
    const change = applyFill(position, fill, order.leverage, order.reduceOnly === true);
    const filled = order.amount.minus(change.unfilled);
    if (filled.isZero()) return { status: 'refused', reason: 'nothing_to_reduce' };
    const fee = filled.mul(order.price).mul(order.maker ? PERP_MAKER_FEE_RATE : PERP_TAKER_FEE_RATE);
    const after = wallet.minus(change.marginIn).plus(change.marginOut).plus(change.realised).minus(fee);
    if (change.marginIn.gt(0) && after.lt(0)) return { status: 'refused', reason: 'margin', needed: change.marginIn.plus(fee), free: wallet };
    const next = change.position;
    if (!next) {
      await tx.deleteFrom('paper_perp_positions').where('user_id', '=', a.userId).where('exchange_id', '=', a.exchangeId).where('symbol', '=', order.symbol).execute();
    } else {
      const values = { side: next.side, size: stored(next.size), entry: stored(next.entry), margin: stored(next.margin), leverage: order.leverage, updated_at: new Date() };
      await tx
        .insertInto('paper_perp_positions')
        .values({ user_id: a.userId, exchange_id: a.exchangeId, symbol: order.symbol, ...values })
        .onConflict((oc) => oc.columns(['user_id', 'exchange_id', 'symbol']).doUpdateSet(values))
        .execute();
    }
    await writeWallet(tx, a, after, [
      { symbol: order.symbol, kind: 'margin_in', amount: change.marginIn.neg() },
      { symbol: order.symbol, kind: 'margin_out', amount: change.marginOut },
      { symbol: order.symbol, kind: 'realised', amount: change.realised },
      { symbol: order.symbol, kind: 'fee', amount: fee.neg() },
    ]);
    return { status: 'filled', position: next, filled, fee, realised: change.realised };
  });
}

/**
 * A contract's funding time settled, once (a second call finds it settled and pays nothing): every position
 * open on it then gets or pays `mark x size x rate` into or out of its margin, one ledger line each, in one
 * transaction for the whole contract. Answers how many positions it settled.
 */
export async function settlePerpetualFunding(db: Db, f: { exchangeId: number; symbol: string; fundingTime: number; rate: Decimal; mark: Decimal }): Promise<number> {
  return db.transaction().execute(async (tx) => {
    const first = await tx
      .insertInto('paper_perp_fundings')
      .values({ exchange_id: f.exchangeId, symbol: f.symbol, funding_time: f.fundingTime, rate: stored(f.rate), mark: stored(f.mark) })
      .onConflict((oc) => oc.columns(['exchange_id', 'symbol', 'funding_time']).doNothing())
      .returning('funding_time')
      .executeTakeFirst();
    if (!first) return 0;
    const rows = await tx.selectFrom('paper_perp_positions').select(['user_id', 'side', 'size', 'margin']).where('exchange_id', '=', f.exchangeId).where('symbol', '=', f.symbol).forUpdate().execute();
    if (rows.length === 0) return 0;
    const lines = rows.map((r) => ({ userId: String(r.user_id), margin: money(r.margin), paid: fundingPayment(r.side, money(r.size), f.mark, f.rate) }));
    // One statement for the margins (the positions' new margins as a values list), one for the lines.
    const values = sql.join(lines.map((l) => sql`(${l.userId}::bigint, ${stored(l.margin.plus(l.paid))}::numeric)`));
    await sql`update paper_perp_positions p set margin = v.margin, updated_at = now()
      from (values ${values}) as v(user_id, margin)
      where p.user_id = v.user_id and p.exchange_id = ${f.exchangeId} and p.symbol = ${f.symbol}`.execute(tx);
    await tx
      .insertInto('paper_perp_ledger')
      .values(lines.map((l) => ({ user_id: l.userId, exchange_id: f.exchangeId, symbol: f.symbol, kind: 'funding' as const, amount: stored(l.paid) })))
      .execute();
    return rows.length;
  });
}

/**
 * The positions of a contract the mark liquidates (strategy/perpetual/liquidation.ts): each closed at its
 * bankruptcy price, its margin lost (a `liquidation` line), what the venue's close at the mark brings
 * beyond it to the insurance line; in one transaction. Answers whose positions went, for their bots to
 * pause and their traders to be told.
 */
export async function liquidatePerpetuals(db: Db, c: { exchangeId: number; symbol: string; mark: Decimal }, tiers: readonly MarginTier[]): Promise<{ userId: string; lost: Decimal }[]> {
  return db.transaction().execute(async (tx) => {
    const rows = await tx
      .selectFrom('paper_perp_positions')
      .select(['user_id', 'side', 'size', 'entry', 'margin'])
      .where('exchange_id', '=', c.exchangeId)
      .where('symbol', '=', c.symbol)
      .forUpdate()
      .execute();
    const gone: { userId: string; lost: Decimal }[] = [];
    for (const row of rows) {
      const p = positionOf(row)!;
      if (!liquidatedAt(p, c.mark, tiers)) continue;
      const l = liquidate(p, c.mark);
      const userId = String(row.user_id);
      await tx.deleteFrom('paper_perp_positions').where('user_id', '=', userId).where('exchange_id', '=', c.exchangeId).where('symbol', '=', c.symbol).execute();
      await tx
        .insertInto('paper_perp_ledger')
        .values([
          { user_id: userId, exchange_id: c.exchangeId, symbol: c.symbol, kind: 'liquidation', amount: stored(l.realised) },
          { user_id: null, exchange_id: c.exchangeId, symbol: c.symbol, kind: 'insurance', amount: stored(l.insurance) },
        ])
        .execute();
      gone.push({ userId, lost: p.margin });
    }
    return gone;
  });
}
