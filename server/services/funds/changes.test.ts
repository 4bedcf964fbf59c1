import Decimal from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { post } from '../../ledger.ts';
import { resolveSession } from '../sessions.ts';
import { openTestApp, PASSWORD, registerPayload, type TestApp } from '../../testing/test-support.ts';

const PAY = '246810';

describe('changes both ways at once (postgres)', () => {
  let t: TestApp;
  beforeAll(async () => {
    // An operator may allow a pair both ways: each direction locks the two balances.
    t = await openTestApp('postgres', { changeRates: { 'usdt:points': '1', 'points:usdt': '1' } });
  });
  afterAll(async () => {
    await t.close();
  });

  it('never deadlocks: opposite changes of one trader at the same moment all go through, the sums exact', async () => {
    const r = await t.app.inject({ method: 'POST', url: '/api/login/register', payload: await registerPayload(t.app) });
    const token = r.json().data.token as string;
    const headers = { authorization: `Bearer ${token}`, lang: 'en' };
    const userId = (await resolveSession(t.db, token)).userId;
    expect((await t.app.inject({ method: 'POST', url: '/api/user/password', headers, payload: { type: 'payment', old: PASSWORD, password: PAY, confirm: PAY } })).json().code).toBe(1);
    for (const asset of ['usdt', 'points'] as const) await t.db.transaction().execute((tx) => post(tx, { userId, asset, amount: new Decimal('100'), reason: 'adjust' }));
    const change = (from: string, to: string) => t.app.inject({ method: 'POST', url: '/api/user/change', headers, payload: { from, to, amount: '1', payPassword: PAY } }).then((x) => x.json());
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => (i % 2 === 0 ? change('usdt', 'points') : change('points', 'usdt'))));
    expect(answers.map((a) => a.code)).toEqual(answers.map(() => 1));
    const balances = (await t.app.inject({ method: 'GET', url: '/api/user/account', headers })).json().data;
    expect({ usdt: balances.usdt, points: balances.points }).toEqual({ usdt: '100', points: '100' });
  });
});
