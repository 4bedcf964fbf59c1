import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code } from '../../contract/codes.ts';
import { dbKinds, newAccount, openTestApp, PASSWORD, registerPayload, type TestApp } from '../testing/test-support.ts';

describe.each(dbKinds)('login and registration on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await openTestApp(kind);
  });
  afterAll(() => t.close());

  const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
    t.app
      .inject({ method: 'POST', url, payload: payload as object, headers })
      .then((r) => ({ status: r.statusCode, body: r.json() as { code: number; msg: string; data: Record<string, unknown> | null }, raw: r.body }));
  /** A registration with a solved challenge (login-limits.test.ts: without one, or a bad one). */
  const register = async (body: Record<string, unknown>, headers?: Record<string, string>) => post('/api/login/register', await registerPayload(t.app, body), headers);

  it('registers an account and answers the login data with a token', async () => {
    const account = newAccount();
    const { status, body } = await register({ account });
    expect(status).toBe(200);
    expect(body.code).toBe(1);
    expect(body.msg).toBe('操作成功');
    expect(body.data).toMatchObject({ account, nickname: expect.stringMatching(/^trader_[0-9a-f]{6}$/), mobile: '', address: '', avatar: '', referral: '' });
    expect(body.data!.nickname).not.toContain(account); // the rank and team lists show nicknames to others
    expect(body.data!.sn).toMatch(/^[1-9]\d{7}$/);
    expect(body.data!.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('records a referrer given by an existing sn', async () => {
    const referrer = (await register({ account: newAccount() })).body.data!;
    const { body } = await register({ account: newAccount(), referrer: referrer.sn });
    expect(body.code).toBe(1);
    expect(body.data!.referral).toBe(referrer.sn);
  });

  it('accepts an empty referrer and an accepted agreement', async () => {
    const { body } = await register({ account: newAccount(), referrer: '', agreement: true });
    expect(body.code).toBe(1);
    expect(body.data!.referral).toBe('');
  });

  it('gives every user a distinct 8-digit sn and no internal id', async () => {
    const sns = new Set<string>();
    for (let i = 0; i < 5; i++) {
      const { body } = await register({ account: newAccount() });
      sns.add(body.data!.sn as string);
      expect(Object.keys(body.data!).sort()).toEqual(['account', 'address', 'avatar', 'mobile', 'nickname', 'referral', 'sn', 'token']);
    }
    expect(sns.size).toBe(5);
  });

  it.each([
    [{ account: 'ab' }, 1103],
    [{ account: 'with space' }, 1103],
    [{ account: 5 }, 1103],
    [{ password: undefined }, 1104],
    [{ confirm: undefined }, 1105],
    [{ agreement: 'yes' }, 1005],
    [{ terminal: undefined }, 6001],
    [{ account: '' }, 1103],
    [{ password: 'short1', confirm: 'short1' }, 1104],
    [{ password: 'lettersonly', confirm: 'lettersonly' }, 1104],
    [{ confirm: 'Different2026' }, 1105],
    [{ referrer: '99999999' }, 1106],
    [{ referrer: 'ab' }, 1106],
    [{ agreement: false }, 1107],
    [{ terminal: 9 }, 1005],
    [{ terminal: '1' }, 1005],
    [{ admin: true }, 1005],
  ])('refuses %o with code %i', async (change, code) => {
    const { status, body } = await register({ account: newAccount(), ...change });
    expect(status).toBe(200);
    expect(body.code).toBe(code);
    expect(body.data).toBeNull();
  });

  it('refuses an account that exists, also when two registrations race', async () => {
    const account = newAccount();
    expect((await register({ account })).body.code).toBe(1);
    expect((await register({ account })).body.code).toBe(1101);
    const racer = newAccount();
    const both = await Promise.all([register({ account: racer }), register({ account: racer })]);
    expect(both.map((r) => r.body.code).sort()).toEqual([1, 1101]);
  });

  it('answers in the request language', async () => {
    const zh = await register({ account: newAccount(), confirm: 'Other2026x' });
    const en = await register({ account: newAccount(), confirm: 'Other2026x' }, { lang: 'en' });
    expect(zh.body.msg).toBe('两次输入的密码不一致');
    expect(en.body.msg).toBe('The two passwords do not match');
    const fr = await register({ account: newAccount(), confirm: 'Other2026x' }, { lang: 'fr' });
    expect(fr.body.msg).toBe('两次输入的密码不一致');
  });

  it('answers an account-format error in English too, and never says which accounts exist', async () => {
    const en = await register({ account: 'ab' }, { lang: 'en' });
    expect(en.body.msg).toMatch(/account/i);
    expect(en.body.msg).not.toBe((await register({ account: 'ab' })).body.msg);
  });

  it('refuses a disabled account at login with AccountDisabled, only once the password is right', async () => {
    const account = newAccount();
    const { body } = await register({ account });
    await t.db
      .updateTable('users')
      .set({ disabled: true })
      .where('sn', '=', body.data!.sn as string)
      .execute();
    const right = await post('/api/login/account', { terminal: 1, account, password: PASSWORD }, { lang: 'en' });
    expect(right.body).toEqual({ code: 1019, msg: 'This account is disabled, please contact support', data: null });
    const wrong = await post('/api/login/account', { terminal: 1, account, password: 'Wrong2026x' });
    expect(wrong.body.code).toBe(1011);
  });

  it('logs in with the right password only, with one message for unknown account and wrong password', async () => {
    const account = newAccount();
    const reg = (await register({ account })).body.data!;
    const ok = await post('/api/login/account', { terminal: 2, account, password: PASSWORD });
    expect(ok.body.code).toBe(1);
    expect(ok.body.data).toMatchObject({ sn: reg.sn, account });
    expect(ok.body.data!.token).not.toBe(reg.token);
    const wrong = await post('/api/login/account', { terminal: 1, account, password: 'Wrong2026x' });
    const unknown = await post('/api/login/account', { terminal: 1, account: newAccount(), password: PASSWORD });
    expect(wrong.body).toEqual({ code: 1011, msg: '账号或密码错误', data: null });
    expect(unknown.body).toEqual(wrong.body);
  });

  // Failed-login waits and challenges (never a lock), the challenge itself and the rate limits: login-limits.test.ts.

  it('keeps devices signed in side by side, several of one kind too; a login past 10 ends the least recently used, which is told why', async () => {
    const account = newAccount();
    const registered = (await register({ account })).body.data!.token as string; // never used again
    const login = (terminal: number) => post('/api/login/account', { terminal, account, password: PASSWORD }).then((r) => r.body.data!.token as string);
    const profile = (token: string) => t.app.inject({ url: '/api/auth/profile', headers: { authorization: `Bearer ${token}`, lang: 'en' } }).then((r) => r.json() as { code: number; msg: string });
    const first = await login(3);
    const other = await login(2);
    const second = await login(3); // a second phone of the same kind: the first stays signed in
    for (const token of [first, other, second]) expect((await profile(token)).code).toBe(1);
    const more: string[] = [];
    for (let i = 0; i < 6; i++) more.push(await login(1)); // ten sessions now
    const eleventh = await login(1);
    // The least recently used, the registering browser's (never used since), is ended and told why.
    expect(await profile(registered)).toEqual({
      code: Code.SessionReplaced,
      msg: 'You are signed in on more than 10 devices: this one, the least recently used, was signed out. Sign in again',
      data: null,
    });
    for (const token of [first, other, second, eleventh, ...more]) expect((await profile(token)).code).toBe(1);
  });

  it('counts logins at once one after the other: three at once leave three live sessions', async () => {
    const account = newAccount();
    await register({ account });
    // From three addresses: tries of one account from one source go one at a time (login-limits.test.ts).
    const both = await Promise.all(
      [1, 2, 3].map((i) =>
        t.app
          .inject({ method: 'POST', url: '/api/login/account', payload: { terminal: 2, account, password: PASSWORD }, remoteAddress: `10.1.0.${i}` })
          .then((r) => ({ body: r.json() as { code: number } })),
      ),
    );
    expect(both.map((r) => r.body.code)).toEqual([1, 1, 1]);
    const user = await t.db.selectFrom('users').select('id').where('account', '=', account).executeTakeFirstOrThrow();
    const live = await t.db.selectFrom('sessions').select('id').where('user_id', '=', user.id).where('terminal', '=', 2).where('revoked_at', 'is', null).execute();
    expect(live).toHaveLength(3);
  });

  it('stores only the hash of a token', async () => {
    const token = (await register({ account: newAccount() })).body.data!.token as string;
    const rows = await t.db.selectFrom('sessions').select('token_hash').execute();
    expect(rows.some((r) => r.token_hash.trim() === token)).toBe(false);
    expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.token_hash.trim()))).toBe(true);
  });

  it('needs no token for login and register, and a valid one for logout', async () => {
    expect((await post('/api/login/logout', {})).body).toMatchObject({ code: 101, msg: '请先登录', data: null });
    expect((await post('/api/login/logout', {}, { authorization: 'Bearer not-a-token', lang: 'en' })).body.code).toBe(101);
  });

  it('logs out: the token stops working with code 2003', async () => {
    const token = (await register({ account: newAccount() })).body.data!.token as string;
    const auth = { authorization: `Bearer ${token}` };
    const out = await post('/api/login/logout', undefined, auth);
    expect(out.body).toEqual({ code: 1, msg: '操作成功', data: null });
    expect((await t.app.inject({ url: '/api/user/index', headers: auth })).json().code).toBe(2003);
    expect((await post('/api/login/logout', undefined, auth)).body.code).toBe(2003);
  });

  it('never returns a hash or a stack trace', async () => {
    const account = newAccount();
    const r = await register({ account });
    const l = await post('/api/login/account', { terminal: 1, account, password: PASSWORD });
    const bad = await post('/api/login/account', { terminal: 1, account, password: 'Wrong2026x' });
    for (const raw of [r.raw, l.raw, bad.raw]) expect(raw).not.toMatch(/argon2|password_hash|payment_hash|token_hash|"id"|at \/|\.ts:\d+|Secret2026x/);
  });
});
