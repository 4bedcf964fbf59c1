import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code } from '../../contract/codes.ts';
import { money } from '../../strategy/money.ts';
import { post } from '../ledger.ts';
import { dbKinds, newAccount, openTestApp, PASSWORD, registerPayload, type TestApp } from '../testing/test-support.ts';

const PAY = '246810';
type App = TestApp['app'];
type Reply = { code: number; msg: string; data: unknown };

/**
 * The secrets checked behind a session (old password, payment password, 2FA codes) are guessed through
 * that session only: its wrong tries end it (1024), and never refuse the owner's other sessions nor a
 * fresh login; a right code sent through an ended session is not used up; the owner's parallel right
 * requests all go through.
 */
describe.each(dbKinds)('a session’s tries belong to that session (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await openTestApp(kind);
  });
  afterAll(() => t?.close());

  const send = (app: App, token: string, method: 'GET' | 'POST', url: string, payload?: object): Promise<Reply> =>
    app.inject({ method, url, ...(payload ? { payload } : {}), headers: { authorization: `Bearer ${token}`, lang: 'en' } }).then((r) => r.json() as Reply);
  /** A trader with a payment password and 100 USDT: the account name and the registering session's token. */
  const owner = async () => {
    const account = newAccount();
    const reg = (await t.app.inject({ method: 'POST', url: '/api/login/register', payload: await registerPayload(t.app, { account }) })).json();
    const token = reg.data.token as string;
    expect((await send(t.app, token, 'POST', '/api/user/password', { type: 'payment', old: PASSWORD, password: PAY, confirm: PAY })).code).toBe(1);
    const user = await t.db.selectFrom('users').select('id').where('account', '=', account).executeTakeFirstOrThrow();
    await post(t.db, { userId: String(user.id), asset: 'usdt', amount: money('100'), reason: 'adjust' });
    return { account, token };
  };
  /** Another session of the account (another terminal, so the first one stays): a stolen one, or the owner's phone. */
  const login = async (account: string, terminal: number) => {
    const r = (await t.app.inject({ method: 'POST', url: '/api/login/account', payload: { terminal, account, password: PASSWORD } })).json();
    expect(r.code).toBe(1);
    return r.data.token as string;
  };
  const change = (app: App, token: string, payPassword: string) => send(app, token, 'POST', '/api/user/change', { from: 'usdt', to: 'fuel', amount: '1', payPassword });
  const twoFactorOn = async (token: string) => {
    const setup = (await send(t.app, token, 'POST', '/api/user/twoFactor/setup', {})).data as { secret: string };
    const app = new TOTP({ secret: Secret.fromBase32(setup.secret) });
    // Codes of steps around one moment: the step the enabling used stays behind the others even if a 30 s step ends meanwhile.
    const at = Date.now();
    const codeAt = (steps: number) => app.generate({ timestamp: at + steps * 30_000 });
    expect((await send(t.app, token, 'POST', '/api/user/twoFactor/enable', { code: codeAt(-1) })).code).toBe(1);
    return codeAt;
  };

  it('ends a session after 5 wrong payment passwords through it (1024), while the owner’s session and a fresh login still pay', async () => {
    const { account, token } = await owner();
    const stolen = await login(account, 2);
    const codes: number[] = [];
    for (let i = 0; i < 5; i++) codes.push((await change(t.app, stolen, String(100000 + i))).code);
    expect(codes).toEqual([Code.IncorrectPassword, Code.IncorrectPassword, Code.IncorrectPassword, Code.IncorrectPassword, Code.SessionTriesExhausted]);
    const ended = await change(t.app, stolen, PAY);
    expect(ended).toEqual({ code: Code.SessionTriesExhausted, msg: 'Too many wrong passwords or codes through this login: you have been signed out. Please log in again', data: null });
    expect((await send(t.app, stolen, 'GET', '/api/user/account')).code).toBe(Code.SessionTriesExhausted);
    // The owner's session was never refused, and the owner's next login has a budget of its own.
    expect((await change(t.app, token, PAY)).code).toBe(1);
    const fresh = await login(account, 3);
    for (let i = 0; i < 4; i++) expect((await change(t.app, fresh, '000000')).code).toBe(Code.IncorrectPassword);
    expect((await change(t.app, fresh, PAY)).code).toBe(1);
    expect((await change(t.app, token, PAY)).code).toBe(1);
  });

  it('keeps the owner’s password and 2FA changes going whatever a stolen session tries, renewing or not', async () => {
    const { account, token } = await owner();
    const codeAt = await twoFactorOn(token);
    // Two stolen sessions spend their tries on the old login password and on 2FA codes.
    const first = await login(account, 2);
    for (let i = 0; i < 5; i++) await send(t.app, first, 'POST', '/api/user/password', { type: 'login', old: `Guess${i}2026x`, password: 'Taken2026xx', confirm: 'Taken2026xx' });
    expect((await send(t.app, first, 'GET', '/api/user/security')).code).toBe(Code.SessionTriesExhausted);
    const second = await login(account, 3);
    const wrong = (i: number) => String((Number(codeAt(0)) + 1 + i) % 1_000_000).padStart(6, '0');
    for (let i = 0; i < 5; i++) await send(t.app, second, 'POST', '/api/user/twoFactor/disable', { code: wrong(i) });
    // A right code sent through the ended session is refused and not used up: the owner uses it.
    const right = codeAt(0);
    expect((await send(t.app, second, 'POST', '/api/user/twoFactor/disable', { code: right })).code).toBe(Code.SessionTriesExhausted);
    expect((await send(t.app, token, 'POST', '/api/user/password', { type: 'payment', old: PAY, password: '135790', confirm: '135790', otp: right })).code).toBe(1);
    expect((await send(t.app, token, 'POST', '/api/user/password', { type: 'login', old: PASSWORD, password: 'Owner2026xx', confirm: 'Owner2026xx', otp: codeAt(1) })).code).toBe(1);
    expect((await send(t.app, token, 'GET', '/api/user/security')).data).toMatchObject({ twoFactor: true });
  });

  it('lets the owner’s parallel right requests all through, on one process or two', async () => {
    const { token } = await owner();
    const other = await t.another();
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => change(i % 2 ? other : t.app, token, PAY)));
    expect(answers.map((a) => a.code)).toEqual(Array(12).fill(1));
    // The same right 2FA code sent 6 times at once: it works once, the others say so, and none counts as a wrong try.
    const codeAt = await twoFactorOn(token);
    const code = codeAt(0);
    const disables = await Promise.all(Array.from({ length: 6 }, (_, i) => send(i % 2 ? other : t.app, token, 'POST', '/api/user/twoFactor/disable', { code })));
    const codes = disables.map((a) => a.code);
    expect(codes.filter((c) => c === 1)).toHaveLength(1);
    expect(codes.filter((c) => c !== 1).every((c) => c === Code.TwoFactorInvalid || c === Code.TwoFactorNotEnabled)).toBe(true);
    for (let i = 0; i < 4; i++) expect((await change(t.app, token, '000000')).code).toBe(Code.IncorrectPassword);
    expect((await change(t.app, token, PAY)).code).toBe(1);
  });

  it('gives many wrong tries at once over two processes no more checks than the session’s budget', async () => {
    const { token } = await owner();
    const other = await t.another();
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => change(i % 2 ? other : t.app, token, String(100000 + i))));
    const codes = answers.map((a) => a.code);
    expect(codes.filter((c) => c === Code.IncorrectPassword)).toHaveLength(4);
    expect(codes.filter((c) => c === Code.SessionTriesExhausted)).toHaveLength(16);
  });
});
