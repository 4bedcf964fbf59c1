import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code } from '../../contract/codes.ts';
import { calls, type AnswerOf, type CallName } from '../../contract/calls.ts';
import { dbKinds, newAccount, openTestApp, PASSWORD, type TestApp, registerPayload } from '../testing/test-support.ts';
import { hashToken } from '../services/sessions.ts';

type Answer = { code: number; msg: string; data: Record<string, unknown> | null };

describe.each(dbKinds)('the logged-in user on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await openTestApp(kind);
  });
  afterAll(() => t.close());

  async function newUser(referrer = '') {
    const account = newAccount();
    const res = await t.app.inject({ method: 'POST', url: '/api/login/register', payload: await registerPayload(t.app, { account, referrer }) });
    const data = res.json().data as { token: string; sn: string };
    const call = (method: 'GET' | 'POST', url: string, payload?: object, headers: Record<string, string> = {}) =>
      t.app.inject({ method, url, ...(payload ? { payload } : {}), headers: { authorization: `Bearer ${data.token}`, ...headers } }).then((r) => r.json() as Answer);
    return { account, ...data, call };
  }

  it('refuses every user call without a valid token (101)', async () => {
    for (const url of ['/api/auth/profile', '/api/user/index']) {
      expect((await t.app.inject({ url })).json()).toMatchObject({ code: 101, data: null });
      expect((await t.app.inject({ url, headers: { authorization: 'Bearer nope' } })).json().code).toBe(101);
      expect((await t.app.inject({ url, headers: { authorization: 'Basic abc' } })).json().code).toBe(101);
    }
  });

  it('asks for the session on every call but the ones the contract marks public, which never answer 101', async () => {
    // Registration reads the contract's `public` flag: the sign-in calls only, and each answers as its flag says.
    expect((Object.keys(calls) as CallName[]).filter((name) => 'public' in calls[name]).sort()).toEqual(['loginAccount', 'loginChallenge', 'loginNonce', 'loginRegister', 'loginVerify']);
    for (const name of Object.keys(calls) as CallName[]) {
      const spec = calls[name];
      const url = `/api${spec.path.replace(/:\w+/g, '1')}`;
      const code = (await t.app.inject({ method: spec.method, url, ...(spec.method === 'GET' || spec.method === 'DELETE' ? {} : { payload: {} }) })).json().code;
      if ('public' in spec) expect(code, name).not.toBe(Code.NotLoggedIn);
      else expect(code, name).toBe(Code.NotLoggedIn);
    }
  });

  it('answers 1006 for an expired session and 2003 for a disabled account', async () => {
    const u = await newUser();
    await t.db
      .updateTable('sessions')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('token_hash', '=', hashToken(u.token))
      .execute();
    expect((await u.call('GET', '/api/auth/profile')).code).toBe(1006);
    const v = await newUser();
    await t.db.updateTable('users').set({ disabled: true }).where('sn', '=', v.sn).execute();
    expect((await v.call('GET', '/api/auth/profile')).code).toBe(2003);
  });

  it('shows the profile and the summary, counting referrals', async () => {
    const u = await newUser();
    await newUser(u.sn);
    await newUser(u.sn);
    const profile = await u.call('GET', '/api/auth/profile');
    expect(profile.code).toBe(1);
    expect(profile.data).toMatchObject({ sn: u.sn, account: u.account, email: '', loginPasswordSet: true, paymentPasswordSet: false, referral: '' });
    expect(Object.keys(profile.data!)).not.toContain('password_hash');
    const index = await u.call('GET', '/api/user/index');
    expect(index.data).toMatchObject({ fuel: '100', points: '0', referrals: 2, profile: { sn: u.sn } }); // the welcome fuel
  });

  it('changes profile fields and checks each one', async () => {
    const u = await newUser();
    const set = (field: string, value: unknown, lang = 'zh') => u.call('POST', '/api/user/setInfo', { field, value }, { lang });
    expect((await set('nickname', '  Whale  ')).data).toMatchObject({ nickname: 'Whale' });
    expect((await set('email', 'w@example.com')).data).toMatchObject({ email: 'w@example.com' });
    expect((await set('mobile', '+8613800000000')).data).toMatchObject({ mobile: '+8613800000000' });
    expect((await set('avatar', 'https://img.example/a.png')).data).toMatchObject({ avatar: 'https://img.example/a.png' });
    expect(await set('email', 'not-an-email', 'en')).toEqual({ code: 1201, msg: 'Enter a valid email address', data: null });
    expect((await set('nickname', '')).code).toBe(1205);
    expect((await set('mobile', '12ab')).code).toBe(1206);
    expect((await set('avatar', 'javascript:alert(1)')).code).toBe(1207);
    expect((await set('password_hash', 'x')).code).toBe(1005);
    expect((await set('nickname', '   ')).code).toBe(1205);
    expect((await set('nickname', 'x'.repeat(33))).code).toBe(1205);
    expect((await set('nickname', '鲸'.repeat(32))).data).toMatchObject({ nickname: '鲸'.repeat(32) });
    expect((await set('nickname', 'Whale')).code).toBe(1);
    expect((await set('nickname', 'x'.repeat(600))).code).toBe(1205);
    expect((await set('nickname', 5)).code).toBe(1005);
    expect((await set('email', 'a@b')).code).toBe(1201);
    expect((await set('mobile', '+86 138')).code).toBe(1206);
    expect((await set('avatar', 'http://img.example/a.png')).code).toBe(1207);
    expect((await set('avatar', '//evil.example/a.png')).code).toBe(1207);
    expect((await set('avatar', 'data:image/png;base64,AAAA')).code).toBe(1207);
    expect((await set('avatar', `https://img.example/${'a'.repeat(500)}`)).code).toBe(1207);
    expect((await set('avatar', '/avatars/7.png')).data).toMatchObject({ avatar: '/avatars/7.png' });
    expect(await set('avatar', 'ftp://x', 'en')).toEqual({ code: 1207, msg: 'Invalid avatar address', data: null });
    expect((await set('nickname', 'Whale', 'zh')).msg).toBe('操作成功');
    expect((await u.call('POST', '/api/user/setInfo', { field: 'nickname' })).code).toBe(6001);
    expect((await u.call('POST', '/api/user/setInfo', { field: 'email', value: '', extra: 1 })).code).toBe(1005);
    // An empty value clears an optional field.
    expect((await set('email', '')).data).toMatchObject({ email: '' });
    await set('email', 'w@example.com');
    expect((await u.call('GET', '/api/auth/profile')).data).toMatchObject({ nickname: 'Whale', email: 'w@example.com' });
  });

  it('checks the token before the input: a bad body without a token is 101', async () => {
    const r = await t.app.inject({ method: 'POST', url: '/api/user/setInfo', payload: { nope: 1 } });
    expect(r.json()).toMatchObject({ code: 101, data: null });
  });

  it('tells apart missing (101), expired (1006) and revoked (2003) sessions, in both languages', async () => {
    const u = await newUser();
    const zh = await t.app.inject({ url: '/api/user/index' });
    const en = await t.app.inject({ url: '/api/user/index', headers: { lang: 'en' } });
    expect(zh.json()).toEqual({ code: 101, msg: '请先登录', data: null });
    expect(en.json().code).toBe(101);
    expect(en.json().msg).not.toBe(zh.json().msg);
    await t.db
      .updateTable('sessions')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('token_hash', '=', hashToken(u.token))
      .execute();
    expect(await u.call('GET', '/api/user/index')).toEqual({ code: 1006, msg: '登录已过期，请重新登录', data: null });
  });

  it('changes the login password with the current one, ending the other sessions', async () => {
    const u = await newUser();
    const other = (await t.app.inject({ method: 'POST', url: '/api/login/account', payload: { terminal: 2, account: u.account, password: PASSWORD } })).json().data.token as string;
    const change = (body: object) => u.call('POST', '/api/user/password', { type: 'login', ...body });
    expect((await change({ old: 'Wrong2026x', password: 'NewPass2026', confirm: 'NewPass2026' })).code).toBe(1015);
    expect((await change({ password: 'NewPass2026', confirm: 'NewPass2026' })).code).toBe(1015);
    expect((await change({ old: PASSWORD, confirm: 'NewPass2026' })).code).toBe(6001);
    expect((await change({ old: PASSWORD, password: 'short', confirm: 'short' })).code).toBe(1104);
    expect((await change({ old: PASSWORD, password: 'NewPass2026', confirm: 'NewPass2027' })).code).toBe(1105);
    expect((await change({ old: PASSWORD, password: 'NewPass2026', confirm: 'NewPass2026' })).code).toBe(1);
    expect((await u.call('GET', '/api/auth/profile')).code).toBe(1);
    expect((await t.app.inject({ url: '/api/auth/profile', headers: { authorization: `Bearer ${other}` } })).json().code).toBe(2003);
    const login = (password: string, ip: string) =>
      t.app.inject({ method: 'POST', url: '/api/login/account', payload: { terminal: 1, account: u.account, password }, remoteAddress: ip }).then((r) => r.json().code);
    expect(await login(PASSWORD, '10.0.0.1')).toBe(1011);
    // (From the same address the next try would wait a second after that failure: login-limits.test.ts.)
    expect(await login('NewPass2026', '10.0.0.2')).toBe(1);
  });

  it('sets the payment password with the login password, then changes it with the old one', async () => {
    const u = await newUser();
    const pay = (body: object) => u.call('POST', '/api/user/password', { type: 'payment', ...body });
    expect((await pay({ old: PASSWORD, password: '12345', confirm: '12345' })).code).toBe(1202);
    expect((await pay({ old: PASSWORD, password: '12345a', confirm: '12345a' })).code).toBe(1202);
    expect((await pay({ old: PASSWORD, password: '123456', confirm: '123457' })).code).toBe(1203);
    expect((await pay({ old: 'Wrong2026x', password: '123456', confirm: '123456' })).code).toBe(1015);
    expect((await pay({ password: '123456', confirm: '123456' })).code).toBe(1015);
    expect((await pay({ old: PASSWORD, password: '123456', confirm: '123456' })).code).toBe(1);
    expect((await u.call('GET', '/api/auth/profile')).data).toMatchObject({ paymentPasswordSet: true });
    expect((await pay({ old: PASSWORD, password: '654321', confirm: '654321' })).code).toBe(1015);
    expect((await pay({ old: '123456', password: '654321', confirm: '654321' })).code).toBe(1);
    expect((await u.call('POST', '/api/user/password', { type: 'wallet', password: '1', confirm: '1' })).code).toBe(1005);
  });

  it('limits guesses of the current password through the change call: the session ends after 5 wrong ones', async () => {
    const u = await newUser();
    const change = (old: string) => u.call('POST', '/api/user/password', { type: 'login', old, password: 'NewPass2026', confirm: 'NewPass2026' });
    for (let i = 0; i < 4; i++) expect((await change(`Guess${i}2026x`)).code).toBe(1015);
    expect((await change('Guess42026x')).code).toBe(1024);
    const ended = await change(PASSWORD);
    expect(ended.code).toBe(1024);
    const pay = (old: string) => u.call('POST', '/api/user/password', { type: 'payment', old, password: '123456', confirm: '123456' });
    expect((await pay(PASSWORD)).code).toBe(1024);
  });

  it('limits guesses of the 6-digit payment password', async () => {
    const u = await newUser();
    const pay = (old: string) => u.call('POST', '/api/user/password', { type: 'payment', old, password: '111111', confirm: '111111' });
    expect((await pay(PASSWORD)).code).toBe(1);
    for (let i = 0; i < 4; i++) expect((await pay(`00000${i}`)).code).toBe(1015);
    expect((await pay('000004')).code).toBe(1024);
    expect((await pay('111111')).code).toBe(1024);
  });

  it('lets a wallet-only account set its first payment password without an old one', async () => {
    const u = await newUser();
    await t.db.updateTable('users').set({ password_hash: null }).where('sn', '=', u.sn).execute();
    expect((await u.call('GET', '/api/auth/profile')).data).toMatchObject({ loginPasswordSet: false });
    expect((await u.call('POST', '/api/user/password', { type: 'payment', password: '246810', confirm: '246810' })).code).toBe(1);
    expect((await u.call('POST', '/api/user/password', { type: 'payment', password: '135791', confirm: '135791' })).code).toBe(1015);
  });

  it('never shows a hash in any answer', async () => {
    const u = await newUser();
    await u.call('POST', '/api/user/password', { type: 'payment', old: PASSWORD, password: '123456', confirm: '123456' });
    for (const url of ['/api/auth/profile', '/api/user/index']) {
      const raw = (await t.app.inject({ url, headers: { authorization: `Bearer ${u.token}` } })).body;
      expect(raw).not.toMatch(/argon2|_hash|"id"|123456|Secret2026x/);
    }
  });

  it('changes the referrer once: an existing UID, not oneself, no cycle; a second change is refused', async () => {
    const reg = async (referrer?: string) => {
      const r = await t.app.inject({ method: 'POST', url: '/api/login/register', payload: await registerPayload(t.app, { ...(referrer ? { referrer } : {}) }) });
      return { headers: { authorization: `Bearer ${r.json().data.token}`, lang: 'en' }, sn: r.json().data.sn as string };
    };
    const set = (who: { headers: Record<string, string> }, value: string) =>
      t.app
        .inject({ method: 'POST', url: '/api/user/setInfo', payload: { field: 'referrer', value }, headers: who.headers })
        .then((r) => r.json() as { code: number; msg: string; data: AnswerOf<'userSetInfo'> });
    const a = await reg();
    const b = await reg(a.sn); // b was invited by a
    const c = await reg();
    expect((await set(a, 'ab')).code).toBe(Code.InvalidReferralCode); // under 3 characters
    expect((await set(a, a.sn)).code).toBe(Code.InvalidReferralCode); // oneself
    expect((await set(a, '99999999')).code).toBe(Code.InvalidReferralCode); // nobody
    expect((await set(a, b.sn)).code).toBe(Code.InvalidReferralCode); // b is in a's team: a cycle
    const changed = await set(a, c.sn);
    expect(changed.code).toBe(1);
    expect(changed.data.referral).toBe(c.sn);
    const again = await set(a, b.sn);
    expect([again.code, again.msg]).toEqual([Code.ReferrerChangedOnce, expect.stringMatching(/once/i)]);
  });
});
