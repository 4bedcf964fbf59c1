import { Secret, TOTP } from 'otpauth';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code } from '../../contract/codes.ts';
import { openChain, type ChainSide } from '../chain/chain-side.ts';
import { startDevChain, type DevChain } from '../chain/dev-chain.ts';
import { readConfig } from '../config.ts';
import { money } from '../../strategy/money.ts';
import { post } from '../ledger.ts';
import { checkWithdrawAddress, checkWithdrawLock, lockedUntil, lockForChange } from '../services/security/lock.ts';
import { acceptingKeys, dbKinds, newAccount, openTestApp, PASSWORD, type Answer, type DataAt, type TestApp, registerPayload } from '../testing/test-support.ts';

const HOUR = 3_600_000;
const PAY = '135790';

/**
 * A stolen session token is not enough to take money out. A wallet-only account
 * sets its payment password only with its wallet's fresh signature; a security change locks
 * withdrawals for WITHDRAW_LOCK_HOURS with a notice (a first payment password and 2FA turned on only
 * add protection: a notice, no lock); a new address waits as long; two-factor
 * authentication (RFC 6238) guards withdrawals, exchange keys and passwords once on.
 */
describe.each(dbKinds)('account security (%s)', (kind) => {
  let chain: DevChain;
  let side: ChainSide;
  let t: TestApp;
  const as =
    (auth: Record<string, string>) =>
    <M extends 'GET' | 'POST', U extends string>(method: M, url: U, payload?: object) =>
      t.app.inject({ method, url, ...(payload ? { payload } : {}), headers: { ...auth, lang: 'en' } }).then((r) => r.json() as Answer<DataAt<M, U>>);
  const userIdOf = async (sn: string) => String((await t.db.selectFrom('users').select('id').where('sn', '=', sn).executeTakeFirstOrThrow()).id);
  const noticesOf = async (call: ReturnType<typeof as>) => (await call('GET', '/api/notice/list?page_size=50')).data.list.map((n) => [n.code, n.detail]);
  /** Lets the lock (and new addresses' waits) run out, as 24 hours would. */
  const timePasses = async (userId: string) => {
    await t.db
      .updateTable('users')
      .set({ withdraw_lock_from: new Date(Date.now() - 24 * HOUR - 1000) })
      .where('id', '=', userId)
      .execute();
    await t.db
      .updateTable('withdrawal_addresses')
      .set({ usable_at: new Date(Date.now() - 1000) })
      .where('user_id', '=', userId)
      .execute();
  };

  beforeAll(async () => {
    chain = await startDevChain();
    const cfg = { ...readConfig({}).chain, rpcUrl: chain.url, usdt: chain.usdt, deposit: chain.deposit, hotWalletKey: chain.hotWalletKey, confirmations: 3, pollMs: 50, startBlock: 1 };
    t = await openTestApp(kind, { chain: (db) => (side = openChain(db, cfg)!), exchangeClient: acceptingKeys, config: { withdrawLockMs: 24 * HOUR } });
  });
  afterAll(async () => {
    await side?.stop();
    await t?.close();
    await chain?.stop();
  });

  it('refuses to set a wallet account’s payment password on a stolen token alone; the wallet’s signature sets it, once', async () => {
    const wallet = privateKeyToAccount(generatePrivateKey());
    const nonce = (await t.app.inject({ url: `/api/login/nonce?address=${wallet.address}` })).json().data;
    const login = (
      await t.app.inject({ method: 'POST', url: '/api/login/verify', payload: { address: wallet.address, signature: await wallet.signMessage({ message: nonce.message }), terminal: 4 } })
    ).json();
    const call = as({ authorization: `Bearer ${login.data.token}` });
    const userId = await userIdOf(login.data.sn);
    await post(t.db, { userId, asset: 'usdt', amount: money('100'), reason: 'adjust' });
    expect((await call('GET', '/api/user/security')).data).toEqual({
      twoFactor: false,
      recoveryCodesLeft: 0,
      loginPasswordSet: false,
      paymentPasswordSet: false,
      wallet: wallet.address,
      walletProofNeeded: true,
      withdrawLockedUntil: null,
      withdrawLockMs: 24 * HOUR,
    });
    // The attack: a stolen session token alone sets the payment password.
    const bare = await call('POST', '/api/user/password', { type: 'payment', password: PAY, confirm: PAY });
    expect(bare).toMatchObject({ code: Code.WalletProofRequired, msg: 'A wallet account sets its payment password with a signature from its bound wallet' });
    // Another wallet's signature, or a login statement, proves nothing.
    const statement = await call('GET', '/api/user/paymentNonce');
    expect(statement.data.message).toContain(`Confirm a password change of QuantBot account UID ${login.data.sn}.`);
    expect(statement.data.message).toContain('\nChain ID: 56\n');
    const stranger = privateKeyToAccount(generatePrivateKey());
    expect((await call('POST', '/api/user/password', { type: 'payment', password: PAY, confirm: PAY, signature: await stranger.signMessage({ message: statement.data.message }) })).code).toBe(
      Code.WalletSignatureFailed,
    );
    const loginNonce = (await t.app.inject({ url: `/api/login/nonce?address=${wallet.address}` })).json().data;
    const loginStatement = await wallet.signMessage({ message: loginNonce.message });
    const fresh = await call('GET', '/api/user/paymentNonce'); // the stranger's try did not use the statement up, but take a new one anyway
    expect((await call('POST', '/api/user/password', { type: 'payment', password: PAY, confirm: PAY, signature: loginStatement })).code).toBe(Code.WalletSignatureFailed);
    const signature = await wallet.signMessage({ message: fresh.data.message });
    expect((await call('POST', '/api/user/password', { type: 'payment', password: PAY, confirm: PAY, signature })).code).toBe(1);
    expect((await call('POST', '/api/user/password', { type: 'payment', password: '000111', confirm: '000111', signature })).code).toBe(Code.WalletNonceInvalid);
    // The first payment password opens withdrawals (there were none without it): a notice, no lock.
    const first = await call('GET', '/api/user/withdrawInfo');
    expect(first.data).toMatchObject({ lockedUntil: null, lockMs: 24 * HOUR, paymentPasswordSet: true });
    expect(await noticesOf(call)).toContainEqual(['security_change', { change: 'payment_password' }]);
    // Changed: withdrawals wait 24 hours, the screen and the notices say so.
    const again = await call('GET', '/api/user/paymentNonce');
    const changed = await call('POST', '/api/user/password', { type: 'payment', password: '975310', confirm: '975310', signature: await wallet.signMessage({ message: again.data.message }) });
    expect(changed.code).toBe(1);
    const info = await call('GET', '/api/user/withdrawInfo');
    const until = Date.parse(info.data.lockedUntil!);
    expect(until - Date.now()).toBeGreaterThan(23.9 * HOUR);
    expect(until - Date.now()).toBeLessThanOrEqual(24 * HOUR);
    const to = (await chain.trader()).address;
    const ask = await call('POST', '/api/user/withdraw', { address: to, amount: '20', payPassword: '975310', requestId: 'stolen-token-1' });
    expect(ask.code).toBe(Code.WithdrawalLocked);
    expect(ask.msg).toBe(`Your security settings changed: to protect your funds, withdrawals are locked until ${new Date(until).toISOString().slice(0, 16).replace('T', ' ')} UTC`);
    expect(await noticesOf(call)).toContainEqual(['security_change', { change: 'payment_password', until: info.data.lockedUntil }]);
    expect((await call('GET', '/api/user/account')).data.usdt).toBe('100');
  });

  it('pays a new address only a day after it was first asked for, and leaves a notice of each withdrawal', async () => {
    const reg = await t.app.inject({ method: 'POST', url: '/api/login/register', payload: await registerPayload(t.app) });
    const call = as({ authorization: `Bearer ${reg.json().data.token}` });
    const userId = await userIdOf(reg.json().data.sn);
    await post(t.db, { userId, asset: 'usdt', amount: money('100'), reason: 'adjust' });
    expect((await call('POST', '/api/user/password', { type: 'payment', old: PASSWORD, password: PAY, confirm: PAY })).code).toBe(1);
    await timePasses(userId);
    const to = (await chain.trader()).address;
    const ask = (requestId: string) => call('POST', '/api/user/withdraw', { address: to, amount: '20', payPassword: PAY, requestId });
    const first = await ask('new-address-1');
    expect(first.code).toBe(Code.WithdrawalLocked);
    expect((await noticesOf(call))[0]).toEqual(['security_address', { address: to, until: expect.any(String) }]);
    expect((await ask('new-address-2')).code).toBe(Code.WithdrawalLocked); // asking again does not restart or skip the wait
    await timePasses(userId);
    const paid = await ask('new-address-3');
    expect(paid).toMatchObject({ code: 1, data: { status: 'pending', amount: '20', address: to } });
    expect((await noticesOf(call))[0]).toEqual(['security_withdraw', { amount: '20', address: to }]);
    // A login password change locks again, ends the other sessions and says so.
    expect((await call('POST', '/api/user/password', { type: 'login', old: PASSWORD, password: 'Another2026x', confirm: 'Another2026x' })).code).toBe(1);
    expect((await ask('after-change')).code).toBe(Code.WithdrawalLocked);
    expect((await noticesOf(call))[0]).toEqual(['security_change', { change: 'login_password', until: expect.any(String) }]);
  });

  it('sets up two-factor authentication and asks for a code on withdrawals, live keys and passwords; a code works once', async () => {
    const reg = await t.app.inject({ method: 'POST', url: '/api/login/register', payload: await registerPayload(t.app) });
    const call = as({ authorization: `Bearer ${reg.json().data.token}` });
    const userId = await userIdOf(reg.json().data.sn);
    await post(t.db, { userId, asset: 'usdt', amount: money('100'), reason: 'adjust' });
    expect((await call('POST', '/api/user/password', { type: 'payment', old: PASSWORD, password: PAY, confirm: PAY })).code).toBe(1);
    expect((await call('POST', '/api/user/twoFactor/enable', { code: '123456' })).code).toBe(Code.TwoFactorNotEnabled); // no setup yet
    const setup = await call('POST', '/api/user/twoFactor/setup', {});
    expect(setup.data.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(setup.data.uri).toMatch(/^otpauth:\/\/totp\/QuantBot:user\w+\?/);
    expect(setup.data.uri).toContain(`secret=${setup.data.secret}`);
    const app = new TOTP({ secret: Secret.fromBase32(setup.data.secret), digits: 6, period: 30, algorithm: 'SHA1' });
    // Codes of steps around one moment: the code the enabling used stays the one replayed below, even if a 30 s step ends meanwhile.
    const at = Date.now();
    const codeAt = (offsetSteps: number) => app.generate({ timestamp: at + offsetSteps * 30_000 });
    const wrong = codeAt(0) === '000000' ? '000001' : '000000';
    expect((await call('POST', '/api/user/twoFactor/enable', { code: wrong })).code).toBe(Code.TwoFactorInvalid);
    const enabled = await call('POST', '/api/user/twoFactor/enable', { code: codeAt(0) });
    expect(enabled.code).toBe(1);
    expect(enabled.data.recoveryCodes).toHaveLength(8);
    for (const c of enabled.data.recoveryCodes) expect(c).toMatch(/^[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}$/);
    expect((await call('POST', '/api/user/twoFactor/setup', {})).code).toBe(Code.TwoFactorAlreadyEnabled);
    // Turning 2FA on only adds a check: a notice, no lock.
    expect((await call('GET', '/api/user/security')).data).toMatchObject({ twoFactor: true, recoveryCodesLeft: 8, withdrawLockedUntil: null });
    expect((await noticesOf(call))[0]).toEqual(['security_change', { change: 'two_factor_on' }]);
    const stored = await t.db.selectFrom('users').select(['totp_sealed', 'recovery_hashes']).where('id', '=', userId).executeTakeFirstOrThrow();
    expect(stored.totp_sealed).not.toContain(setup.data.secret); // sealed at rest
    expect(JSON.stringify(stored.recovery_hashes)).not.toContain(enabled.data.recoveryCodes[0]!.replace('-', ''));

    await timePasses(userId);
    const to = (await chain.trader()).address;
    const body = { address: to, amount: '20', payPassword: PAY };
    expect((await call('POST', '/api/user/withdraw', { ...body, requestId: 'two-factor-1' })).code).toBe(Code.TwoFactorRequired);
    // The code of the enabling step was used: the same code again is a replay.
    expect((await call('POST', '/api/user/withdraw', { ...body, requestId: 'two-factor-2', otp: codeAt(0) })).code).toBe(Code.TwoFactorInvalid);
    expect((await call('POST', '/api/user/withdraw', { ...body, requestId: 'two-factor-3', otp: codeAt(1) })).code).toBe(Code.WithdrawalLocked); // the code passed; the new address waits
    // Live exchange keys need a code; a simulated account does not.
    expect((await call('POST', '/api/exchanges/bind', { exchangeId: 2, apiKey: 'livekey0001', secretKey: 'livesecret0001' })).code).toBe(Code.TwoFactorRequired);
    expect((await call('POST', '/api/exchanges/bind', { exchangeId: 1, apiKey: 'paperkey01', secretKey: 'papersecret01' })).code).toBe(1);
    // A recovery code works once.
    const recovery = enabled.data.recoveryCodes[0] as string;
    expect((await call('POST', '/api/exchanges/bind', { exchangeId: 2, apiKey: 'livekey0001', secretKey: 'livesecret0001', otp: recovery.toLowerCase() })).code).toBe(1);
    expect((await call('POST', '/api/exchanges/bind', { exchangeId: 2, apiKey: 'livekey0002', secretKey: 'livesecret0002', otp: recovery })).code).toBe(Code.TwoFactorInvalid);
    expect((await call('GET', '/api/user/security')).data.recoveryCodesLeft).toBe(7);
    // Passwords: a code too.
    expect((await call('POST', '/api/user/password', { type: 'payment', old: PAY, password: '975310', confirm: '975310' })).code).toBe(Code.TwoFactorRequired);
    expect((await call('POST', '/api/user/password', { type: 'payment', old: PAY, password: '975310', confirm: '975310', otp: enabled.data.recoveryCodes[1] })).code).toBe(1);
    // Turning it off needs a code, and locks withdrawals again.
    expect((await call('POST', '/api/user/twoFactor/disable', { code: recovery })).code).toBe(Code.TwoFactorInvalid);
    expect((await call('POST', '/api/user/twoFactor/disable', { code: enabled.data.recoveryCodes[2] })).code).toBe(1);
    expect((await call('GET', '/api/user/security')).data).toMatchObject({ twoFactor: false, recoveryCodesLeft: 0 });
    expect((await noticesOf(call))[0]).toEqual(['security_change', { change: 'two_factor_off', until: expect.any(String) }]);
  });

  it('leaves a notice when the account logs in from a new device, not from a known one', async () => {
    const account = newAccount();
    const phone = { 'user-agent': 'Mozilla/5.0 (iPhone) Safari/604.1' };
    await t.app.inject({ method: 'POST', url: '/api/login/register', payload: await registerPayload(t.app, { account, terminal: 2 }), headers: phone });
    const login = (terminal: number, headers: Record<string, string>) =>
      t.app.inject({ method: 'POST', url: '/api/login/account', payload: { terminal, account, password: PASSWORD }, headers }).then((r) => r.json());
    const loginNotices = async (token: string) => (await noticesOf(as({ authorization: `Bearer ${token}` }))).filter(([code]) => code === 'security_login');
    const again = await login(2, phone); // the registering phone again: known
    expect(again.code).toBe(1);
    expect(await loginNotices(again.data.token)).toHaveLength(0);
    const laptop = { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/140' };
    const second = await login(1, laptop);
    expect(second.code).toBe(1);
    expect(await loginNotices(second.data.token)).toEqual([['security_login', { terminal: '1', ip: expect.any(String), agent: laptop['user-agent'] }]]);
    const third = await login(1, laptop);
    expect(await loginNotices(third.data.token)).toHaveLength(1);
  });

  it('keeps each trader’s security to themselves: another trader’s 2FA, lock and statement change nothing of theirs', async () => {
    const a = as({ authorization: `Bearer ${(await t.app.inject({ method: 'POST', url: '/api/login/register', payload: await registerPayload(t.app) })).json().data.token}` });
    const b = as({ authorization: `Bearer ${(await t.app.inject({ method: 'POST', url: '/api/login/register', payload: await registerPayload(t.app) })).json().data.token}` });
    const setup = await a('POST', '/api/user/twoFactor/setup', {});
    const enabled = await a('POST', '/api/user/twoFactor/enable', { code: new TOTP({ secret: Secret.fromBase32(setup.data.secret) }).generate() });
    expect(enabled.code).toBe(1);
    // B cannot use A's pending or enabled secret, and sees none of A's state.
    expect((await b('POST', '/api/user/twoFactor/enable', { code: new TOTP({ secret: Secret.fromBase32(setup.data.secret) }).generate() })).code).toBe(Code.TwoFactorNotEnabled);
    expect((await b('POST', '/api/user/twoFactor/disable', { code: '123456' })).code).toBe(Code.TwoFactorNotEnabled);
    // A turns 2FA off (a lock of A's): B's withdrawals stay open.
    expect((await a('POST', '/api/user/twoFactor/disable', { code: enabled.data.recoveryCodes[0] })).code).toBe(1);
    expect((await b('GET', '/api/user/security')).data).toMatchObject({ twoFactor: false, withdrawLockedUntil: null });
    expect((await a('GET', '/api/user/security')).data).toMatchObject({ twoFactor: false, withdrawLockedUntil: expect.any(String) });
    expect((await b('GET', '/api/notice/list')).data.total).toBe(0);
    // An account without a wallet gets no password statement to sign.
    expect((await b('GET', '/api/user/paymentNonce')).code).toBe(Code.WalletNotConnected);
  });

  it('counts a lock from the change with the setting in force: a shorter WITHDRAW_LOCK_HOURS shortens the locks and address waits already stored', async () => {
    const reg = await t.app.inject({ method: 'POST', url: '/api/login/register', payload: await registerPayload(t.app) });
    const userId = await userIdOf(reg.json().data.sn);
    const now = new Date();
    const later = new Date(now.getTime() + 2 * HOUR);
    await lockForChange(t.db, userId, 'login_password', 24 * HOUR, now);
    const user = await t.db.selectFrom('users').select('withdraw_lock_from').where('id', '=', userId).executeTakeFirstOrThrow();
    expect(lockedUntil(user, 24 * HOUR, now)).toBe(new Date(now.getTime() + 24 * HOUR).toISOString());
    await expect(checkWithdrawLock(t.db, userId, 24 * HOUR, later)).rejects.toMatchObject({ codeName: 'WithdrawalLocked' });
    // The operator sets 1 hour: two hours after the change, the lock has passed.
    expect(lockedUntil(user, HOUR, later)).toBeNull();
    await expect(checkWithdrawLock(t.db, userId, HOUR, later)).resolves.toBeUndefined();
    // An address recorded under 24 hours waits 1 hour once the setting says so.
    const address = (await chain.trader()).address;
    await expect(checkWithdrawAddress(t.db, userId, address, 24 * HOUR, now)).rejects.toMatchObject({ codeName: 'WithdrawalLocked' });
    await expect(checkWithdrawAddress(t.db, userId, address, 24 * HOUR, later)).rejects.toMatchObject({ codeName: 'WithdrawalLocked' });
    await expect(checkWithdrawAddress(t.db, userId, address, HOUR, later)).resolves.toBeUndefined();
    // An older change never moves a later one back.
    await lockForChange(t.db, userId, 'two_factor_off', HOUR, new Date(now.getTime() - HOUR));
    const kept = await t.db.selectFrom('users').select('withdraw_lock_from').where('id', '=', userId).executeTakeFirstOrThrow();
    expect(kept.withdraw_lock_from!.getTime()).toBe(now.getTime());
  });

  it('counts wrong codes against the session’s tries', async () => {
    const reg = await t.app.inject({ method: 'POST', url: '/api/login/register', payload: await registerPayload(t.app) });
    const call = as({ authorization: `Bearer ${reg.json().data.token}` });
    const setup = await call('POST', '/api/user/twoFactor/setup', {});
    const app = new TOTP({ secret: Secret.fromBase32(setup.data.secret) });
    expect((await call('POST', '/api/user/twoFactor/enable', { code: app.generate() })).code).toBe(1);
    const codes: number[] = [];
    for (let i = 0; i < 8; i++) codes.push((await call('POST', '/api/user/twoFactor/disable', { code: String(100000 + i) })).code);
    expect(codes.slice(0, 4)).toEqual(Array(4).fill(Code.TwoFactorInvalid));
    expect(codes.slice(4)).toEqual(Array(4).fill(Code.SessionTriesExhausted));
  });
});
