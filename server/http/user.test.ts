import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbKinds, newAccount, openTestApp, PASSWORD, type TestApp } from '../test-support.ts';
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
    const res = await t.app.inject({ method: 'POST', url: '/api/login/register', payload: { terminal: 1, account, password: PASSWORD, confirm: PASSWORD, referrer } });
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

  it('answers 1006 for an expired session and 2003 for a disabled account', async () => {
    const u = await newUser();
    await t.db.updateTable('sessions').set({ expires_at: new Date(Date.now() - 1000) }).where('token_hash', '=', hashToken(u.token)).execute();
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
    expect(index.data).toMatchObject({ fuel: '0', points: '0', referrals: 2, profile: { sn: u.sn } });
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
    expect((await set('nickname', 5)).code).toBe(1005);
    expect((await set('nickname', 'x'.repeat(600))).code).toBe(1005);
    expect((await u.call('GET', '/api/auth/profile')).data).toMatchObject({ nickname: 'Whale', email: 'w@example.com' });
  });

  it('changes the login password with the current one, ending the other sessions', async () => {
    const u = await newUser();
    const other = (await t.app.inject({ method: 'POST', url: '/api/login/account', payload: { terminal: 2, account: u.account, password: PASSWORD } })).json().data.token as string;
    const change = (body: object) => u.call('POST', '/api/user/password', { type: 'login', ...body });
    expect((await change({ old: 'Wrong2026x', password: 'NewPass2026', confirm: 'NewPass2026' })).code).toBe(1015);
    expect((await change({ old: PASSWORD, password: 'short', confirm: 'short' })).code).toBe(1104);
    expect((await change({ old: PASSWORD, password: 'NewPass2026', confirm: 'NewPass2027' })).code).toBe(1105);
    expect((await change({ old: PASSWORD, password: 'NewPass2026', confirm: 'NewPass2026' })).code).toBe(1);
    expect((await u.call('GET', '/api/auth/profile')).code).toBe(1);
    expect((await t.app.inject({ url: '/api/auth/profile', headers: { authorization: `Bearer ${other}` } })).json().code).toBe(2003);
    const login = (password: string) => t.app.inject({ method: 'POST', url: '/api/login/account', payload: { terminal: 1, account: u.account, password } }).then((r) => r.json().code);
    expect(await login(PASSWORD)).toBe(1011);
    expect(await login('NewPass2026')).toBe(1);
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
});
