import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code } from '../../contract/codes.ts';
import type { WithdrawalRecord } from '../../contract/funds.ts';
import { openChain, type ChainSide } from '../chain/chain-side.ts';
import { startDevChain, type DevChain } from '../chain/dev-chain.ts';
import { readConfig } from '../config.ts';
import { money } from '../../strategy/money.ts';
import { post } from '../ledger.ts';
import { dbKinds, openTestApp, PASSWORD, registerPayload, type TestApp } from '../testing/test-support.ts';

const PAY = '135790';
type Reply<T = unknown> = { code: number; msg: string; data: T };
/** The answer is the first request's record (its status moves on as the sender pays it). */
const sameRecord = (answer: Reply<WithdrawalRecord>, first: Reply<WithdrawalRecord>) => {
  const { id, requestId, address, amount, fee, createdAt } = first.data;
  expect(answer).toMatchObject({ code: 1, data: { id, requestId, address, amount, fee, createdAt } });
};

/**
 * A withdrawal's request id answers the first request only for the same request (the network, the
 * address and the amount, normalised), and only after the payment password and the second factor
 * pass again; another request under the id is refused with RequestIdReused and moves nothing.
 */
describe.each(dbKinds)('a replayed withdrawal request id (%s)', (kind) => {
  let chain: DevChain;
  let side: ChainSide;
  let t: TestApp;
  let to: string;

  beforeAll(async () => {
    chain = await startDevChain();
    const cfg = { ...readConfig({}).chain, rpcUrl: chain.url, usdt: chain.usdt, deposit: chain.deposit, hotWalletKey: chain.hotWalletKey, confirmations: 3, pollMs: 50, startBlock: 1 };
    t = await openTestApp(kind, { chain: (db) => (side = openChain(db, cfg)!) });
    to = (await chain.trader()).address;
  });
  afterAll(async () => {
    await side?.stop();
    await t?.close();
    await chain?.stop();
  });

  /** A trader with a payment password and `usdt` on the platform: a caller of their session. */
  const trader = async (usdt: string) => {
    const reg = (await t.app.inject({ method: 'POST', url: '/api/login/register', payload: await registerPayload(t.app) })).json();
    const call = <T = unknown>(method: 'GET' | 'POST', url: string, payload?: object): Promise<Reply<T>> =>
      t.app.inject({ method, url, ...(payload ? { payload } : {}), headers: { authorization: `Bearer ${reg.data.token}`, lang: 'en' } }).then((r) => r.json() as Reply<T>);
    expect((await call('POST', '/api/user/password', { type: 'payment', old: PASSWORD, password: PAY, confirm: PAY })).code).toBe(1);
    const user = await t.db.selectFrom('users').select('id').where('sn', '=', reg.data.sn).executeTakeFirstOrThrow();
    if (usdt !== '0') await post(t.db, { userId: String(user.id), asset: 'usdt', amount: money(usdt), reason: 'adjust' });
    const withdraw = (body: Record<string, string>) => call<WithdrawalRecord>('POST', '/api/user/withdraw', { address: to, amount: '20', payPassword: PAY, ...body });
    const usdtLeft = async () => (await call<{ usdt: string }>('GET', '/api/user/account')).data.usdt;
    return { userId: String(user.id), call, withdraw, usdtLeft };
  };

  it('refuses the id with another amount or address (1023), answers the same request once more after the checks, and pays once', async () => {
    const me = await trader('100');
    const first = await me.withdraw({ requestId: 'replay-aaaa-1' });
    expect(first).toMatchObject({ code: 1, data: { requestId: 'replay-aaaa-1', amount: '20', address: to, status: 'pending' } });
    const reused = { code: Code.RequestIdReused, msg: 'This request id was already used for a different request: refresh the page and submit again', data: null };
    expect(await me.withdraw({ requestId: 'replay-aaaa-1', amount: '30' })).toEqual(reused);
    expect(await me.withdraw({ requestId: 'replay-aaaa-1', address: to.toLowerCase().replace(/.$/, (c) => (c === '0' ? '1' : '0')) })).toEqual(reused);
    // The checks run before the replay's answer: a wrong payment password learns nothing of the record.
    expect((await me.withdraw({ requestId: 'replay-aaaa-1', payPassword: '000000' })).code).toBe(Code.IncorrectPassword);
    // The same request, however written (a lower-case address, 20.0), answers the first record.
    sameRecord(await me.withdraw({ requestId: 'replay-aaaa-1', address: to.toLowerCase(), amount: '20.0' }), first);
    expect(await me.usdtLeft()).toBe('80');
    const rows = await t.db.selectFrom('withdrawals').select(['id', 'request_hash']).where('user_id', '=', me.userId).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.request_hash).toMatch(/^[0-9a-f]{64}$/);
    // A record made before the hash was kept is compared by what it recorded.
    await t.db.updateTable('withdrawals').set({ request_hash: null }).where('user_id', '=', me.userId).execute();
    sameRecord(await me.withdraw({ requestId: 'replay-aaaa-1' }), first);
    expect(await me.withdraw({ requestId: 'replay-aaaa-1', amount: '21' })).toEqual(reused);
  });

  it('asks a replay for a fresh 2FA code once 2FA is on', async () => {
    const me = await trader('100');
    const first = await me.withdraw({ requestId: 'replay-bbbb-1' });
    expect(first.code).toBe(1);
    const setup = await me.call<{ secret: string }>('POST', '/api/user/twoFactor/setup', {});
    const app = new TOTP({ secret: Secret.fromBase32(setup.data.secret) });
    // Codes of steps around one moment: the one the enabling used stays the one replayed below, even if a 30 s step ends meanwhile.
    const at = Date.now();
    const codeAt = (steps: number) => app.generate({ timestamp: at + steps * 30_000 });
    expect((await me.call('POST', '/api/user/twoFactor/enable', { code: codeAt(-1) })).code).toBe(1);
    expect((await me.withdraw({ requestId: 'replay-bbbb-1' })).code).toBe(Code.TwoFactorRequired);
    expect((await me.withdraw({ requestId: 'replay-bbbb-1', otp: codeAt(-1) })).code).toBe(Code.TwoFactorInvalid); // used by the enabling
    sameRecord(await me.withdraw({ requestId: 'replay-bbbb-1', otp: codeAt(0) }), first);
    expect((await me.withdraw({ requestId: 'replay-bbbb-1', amount: '25', otp: codeAt(1) })).code).toBe(Code.RequestIdReused);
  });

  it('answers one request sent 6 times at once with one record, debited once', async () => {
    const me = await trader('100');
    const answers = await Promise.all(Array.from({ length: 6 }, () => me.withdraw({ requestId: 'replay-cccc-1' })));
    expect(answers.map((a) => a.code)).toEqual(Array(6).fill(1));
    expect(new Set(answers.map((a) => a.data.id)).size).toBe(1);
    expect(await me.usdtLeft()).toBe('80');
  });

  it('keeps request ids per trader: Bob’s request under Alice’s id is his own, never her record', async () => {
    const alice = await trader('100');
    const bob = await trader('100');
    const hers = await alice.withdraw({ requestId: 'replay-dddd-1' });
    const his = await bob.withdraw({ requestId: 'replay-dddd-1', amount: '30' });
    expect(his).toMatchObject({ code: 1, data: { amount: '30' } });
    expect(his.data.id).not.toBe(hers.data.id);
    expect([await alice.usdtLeft(), await bob.usdtLeft()]).toEqual(['80', '70']);
    sameRecord(await alice.withdraw({ requestId: 'replay-dddd-1' }), hers);
  });
});
