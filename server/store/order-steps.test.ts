import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { money } from '../../strategy/money.ts';
import type { Db } from '../db/connect.ts';
import { dbKinds, openTestDb } from '../testing/test-support.ts';
import { insertBot } from './bot-rows.ts';
import { findOrder, insertNewOrder, recordOrderAnswer } from './bot-orders.ts';
import { fillsOf, recordFill, stepOrder, stepsOf } from './order-steps.ts';
import { RefusedStep } from './order-states.ts';

describe.each(dbKinds)("an order's steps and fills, stored (%s)", (kind) => {
  let db: Db;
  let drop: () => Promise<void>;
  let bot = '';
  beforeAll(async () => {
    ({ db, drop } = await openTestDb(kind));
    const user = await db
      .insertInto('users')
      .values({ sn: '80000001', account: `steps${kind}`, password_hash: null, payment_hash: null, nickname: 'n', email: '', mobile: '', address: null, avatar: '', referrer_id: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    bot = await insertBot(db, { userId: String(user.id), exchangeId: 1, symbol: 'BTC/USDT', type: 'grid', name: 'g', params: {}, state: {} });
  });
  afterAll(async () => {
    await drop();
  });
  const order = (clientOrderId: string) => ({ botId: bot, clientOrderId, cycle: 1, seq: 1, side: 'buy' as const, reason: 'add', quote: null, amount: '0.01', atPrice: '59000' });
  const answer = (clientOrderId: string) => ({ clientOrderId, status: 'filled' as const, price: '59000', filled: '0.01', cost: '590', fee: '0.00001', feeCurrency: 'BTC' });

  it('stores every step an answered order took, once, and refuses a step the table has not, storing nothing', async () => {
    await insertNewOrder(db, order('s-1'));
    await recordOrderAnswer(db, answer('s-1'));
    // The same answer again (a retried commit): no step more.
    await recordOrderAnswer(db, answer('s-1'));
    expect((await stepsOf(db, { clientOrderId: 's-1' })).map((s) => `${s.from}>${s.to}`)).toEqual(['null>new', 'new>submitted', 'submitted>filled']);
    expect((await findOrder(db, { clientOrderId: 's-1' }))?.status).toBe('filled');
    await expect(db.transaction().execute((tx) => stepOrder(tx, { clientOrderId: 's-1', to: 'open' }))).rejects.toBeInstanceOf(RefusedStep);
    expect(await stepsOf(db, { clientOrderId: 's-1' })).toHaveLength(3);
    expect((await findOrder(db, { clientOrderId: 's-1' }))?.status).toBe('filled');
  });

  it('walks a resting order through a partial fill and a cancel that met its fill', async () => {
    await insertNewOrder(db, order('s-2'));
    for (const to of ['submitted', 'open', 'partially_filled', 'pending_cancel', 'filled'] as const) await stepOrder(db, { clientOrderId: 's-2', to });
    expect((await stepsOf(db, { clientOrderId: 's-2' })).map((s) => s.to)).toEqual(['new', 'submitted', 'open', 'partially_filled', 'pending_cancel', 'filled']);
  });

  it('keeps a fill once by its trade id, however often it is seen', async () => {
    await insertNewOrder(db, order('s-3'));
    const fill = { tradeId: 't-77', price: money('59000'), amount: money('0.004'), cost: money('236'), fee: { currency: 'BTC', amount: money('0.0000032') }, maker: true, at: new Date() };
    expect(await recordFill(db, { clientOrderId: 's-3', botId: bot }, fill)).toBe(true);
    expect(await recordFill(db, { clientOrderId: 's-3', botId: bot }, fill)).toBe(false);
    expect(await recordFill(db, { clientOrderId: 's-3', botId: bot }, { ...fill, tradeId: 't-78', amount: money('0.006'), cost: money('354') })).toBe(true);
    expect((await fillsOf(db, { clientOrderId: 's-3' })).map((f) => [f.tradeId, f.amount.toFixed(), f.maker])).toEqual([
      ['t-77', '0.004', true],
      ['t-78', '0.006', true],
    ]);
  });
});
