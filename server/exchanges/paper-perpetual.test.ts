import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/connect.ts';
import { dbKinds, openTestDb } from '../testing/test-support.ts';
import { money } from '../../strategy/money.ts';
import { BTCUSDT_TIERS } from '../../strategy/perpetual/tiers.ts';
import { openPaperAccount } from './paper-venue.ts';
import { fillPerpetual, liquidatePerpetuals, settlePerpetualFunding, transferPerpetual } from './paper-perpetual.ts';

/**
 * Paper's perpetuals, the account side, on both databases: transfers between spot and the futures wallet,
 * fills that open, grow, reduce and flip one isolated position (refused past the tier's leverage or the
 * wallet), a funding time settled once into the margins, and a liquidation at the mark; every change a
 * ledger line, and one trader's positions, margins and funding never another's.
 */
describe.each(dbKinds)("Paper perpetuals' accounts (%s)", (kind) => {
  let db: Db;
  let drop: () => Promise<void>;
  let a = '';
  let b = '';
  const symbol = 'BTC/USDT';

  beforeAll(async () => {
    ({ db, drop } = await openTestDb(kind));
    const user = async (account: string, sn: string) => {
      const row = await db
        .insertInto('users')
        .values({ sn, account, password_hash: null, payment_hash: null, nickname: 'n', email: '', mobile: '', address: null, avatar: '', referrer_id: null })
        .returning('id')
        .executeTakeFirstOrThrow();
      await openPaperAccount(db, String(row.id));
      return String(row.id);
    };
    a = await user('perpa', '51515151');
    b = await user('perpb', '52525252');
  });
  afterAll(() => drop());

  const accountA = () => ({ userId: a, exchangeId: 1 });
  const accountB = () => ({ userId: b, exchangeId: 1 });
  const wallet = async (userId: string) => money((await db.selectFrom('paper_perp_wallets').select('balance').where('user_id', '=', userId).executeTakeFirst())?.balance ?? '0');
  const spot = async (userId: string) => money((await db.selectFrom('paper_balances').select('amount').where('user_id', '=', userId).where('currency', '=', 'USDT').executeTakeFirstOrThrow()).amount);
  const position = (userId: string) => db.selectFrom('paper_perp_positions').selectAll().where('user_id', '=', userId).where('symbol', '=', symbol).executeTakeFirst();
  const lines = async (userId: string | null, kinds?: string[]) =>
    (
      await db
        .selectFrom('paper_perp_ledger')
        .select(['kind', 'amount'])
        .where('user_id', userId === null ? 'is' : '=', userId)
        .orderBy('id')
        .execute()
    ).filter((l) => !kinds || kinds.includes(l.kind));
  const sum = (rows: { amount: string }[]) => rows.reduce((s, r) => s.plus(r.amount), money(0)).toFixed();
  const WALLET_LINES = ['transfer', 'margin_in', 'margin_out', 'realised', 'fee'];

  it('transfers, opens, grows and reduces at the taker fee, refusing past the leverage tier or the wallet; the wallet is the sum of its lines', async () => {
    expect(await transferPerpetual(db, accountA(), money(2000))).toBe('done');
    expect([(await spot(a)).toFixed(), (await wallet(a)).toFixed()]).toEqual(['8000', '2000']);
    expect(await transferPerpetual(db, accountA(), money(20000))).toBe('short');
    expect(await transferPerpetual(db, accountA(), money(-3000))).toBe('short');

    const order = (side: 'buy' | 'sell', amount: string, price: string, leverage: number, reduceOnly = false) =>
      fillPerpetual(db, accountA(), { symbol, side, amount: money(amount), price: money(price), leverage, reduceOnly }, BTCUSDT_TIERS);
    // 0.1 at 60,000, 10x: 600 of margin, a 3 USDT fee (0.05 %).
    expect(await order('buy', '0.1', '60000', 10)).toMatchObject({ status: 'filled' });
    expect((await wallet(a)).toFixed()).toBe('1397');
    await order('buy', '0.1', '58000', 10);
    expect((await wallet(a)).toFixed()).toBe('814.1');
    // Reduce-only 0.05 at 61,000: 100 realised, 295 of margin back, a fee of 1.525.
    expect(await order('sell', '0.05', '61000', 10, true)).toMatchObject({ status: 'filled', realised: money(100) });
    expect((await wallet(a)).toFixed()).toBe('1207.575');
    const p = (await position(a))!;
    expect([p.side, money(p.size).toFixed(), money(p.entry).toFixed(), money(p.margin).toFixed()]).toEqual(['long', '0.15', '59000', '885']);

    // 1 more at 125x: 69,000 of notional, tier 2, at most 100x. 1 more at 20x: 3,000 of margin the wallet lacks.
    expect(await order('buy', '1', '60000', 125)).toEqual({ status: 'refused', reason: 'leverage', max: 100 });
    expect(await order('buy', '1', '60000', 20)).toMatchObject({ status: 'refused', reason: 'margin', free: money('1207.575') });
    expect(await order('buy', '0.1', '60000', 10, true)).toEqual({ status: 'refused', reason: 'nothing_to_reduce' });

    // The wallet is what its lines say; the margin what the margin lines moved.
    expect(sum(await lines(a, WALLET_LINES))).toBe('1207.575');
    expect(
      money(sum(await lines(a, ['margin_in', 'margin_out'])))
        .neg()
        .toFixed(),
    ).toBe('885');
    // The other trader: no wallet, no position; a fill without margin is refused; their spot untouched.
    expect([(await wallet(b)).toFixed(), await position(b), (await spot(b)).toFixed()]).toEqual(['0', undefined, '10000']);
    expect(await fillPerpetual(db, accountB(), { symbol, side: 'buy', amount: money('0.01'), price: money(60000), leverage: 10 }, BTCUSDT_TIERS)).toMatchObject({ reason: 'margin' });
    // Simulated money: no real balance of either trader exists or moved.
    expect(await db.selectFrom('user_balances').selectAll().where('user_id', 'in', [a, b]).execute()).toEqual([]);
  });

  it('settles a funding time once: longs pay shorts, into and out of their margins, one line each', async () => {
    expect(await transferPerpetual(db, accountB(), money(1000))).toBe('done');
    expect(await fillPerpetual(db, accountB(), { symbol, side: 'sell', amount: money('0.1'), price: money(60000), leverage: 10 }, BTCUSDT_TIERS)).toMatchObject({ status: 'filled' });
    const funding = { exchangeId: 1, symbol, fundingTime: Date.UTC(2026, 10, 29, 16), rate: money('0.0001'), mark: money(60000) };
    expect(await settlePerpetualFunding(db, funding)).toBe(2);
    // A's long of 0.15 pays 0.9; B's short of 0.1 gets 0.6.
    expect(money((await position(a))!.margin).toFixed()).toBe('884.1');
    expect(money((await position(b))!.margin).toFixed()).toBe('600.6');
    expect([sum(await lines(a, ['funding'])), sum(await lines(b, ['funding']))]).toEqual(['-0.9', '0.6']);
    // The same time again: nothing.
    expect(await settlePerpetualFunding(db, funding)).toBe(0);
    expect(money((await position(a))!.margin).toFixed()).toBe('884.1');
    // The wallets did not move: funding is the margins'.
    expect((await wallet(a)).toFixed()).toBe('1207.575');
  });

  it('liquidates what the mark reaches: the margin lost, the rest to the insurance line; the other trader untouched', async () => {
    // B's short: 0.1 at 60,000 with 600.6 of margin liquidates at (600.6 + 6,000) / 0.1004 = 65,743.03.
    expect(await liquidatePerpetuals(db, { exchangeId: 1, symbol, mark: money(65000) }, BTCUSDT_TIERS)).toEqual([]);
    const gone = await liquidatePerpetuals(db, { exchangeId: 1, symbol, mark: money(66000) }, BTCUSDT_TIERS);
    expect(gone.map((g) => `${g.userId === b ? 'b' : 'a'} ${g.lost}`)).toEqual(['b 600.6']);
    expect(await position(b)).toBeUndefined();
    expect(sum(await lines(b, ['liquidation']))).toBe('-600.6');
    // Closed at its bankruptcy price, 66,006: the venue's close at 66,000 leaves 0.6 to insurance.
    expect(sum(await lines(null))).toBe('0.6');
    expect(money((await position(a))!.size).toFixed()).toBe('0.15');
  });
});
