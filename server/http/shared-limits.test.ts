import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code } from '../../contract/codes.ts';
import { dbKinds, newAccount, openTestApp, PASSWORD, registerPayload, solvedChallenge, testRateLimits, type TestApp } from '../testing/test-support.ts';

const PAY = '246810';
type App = TestApp['app'];

/**
 * The login counters, a session's wrong tries and the per-source rate limits are one for every
 * server process on a database, and outlive a restart. `t.another()` is a
 * second process on the same database (or this one restarted: nothing in memory carries over).
 */
describe.each(dbKinds)('limits shared by every process and kept across restarts on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await openTestApp(kind);
  });
  afterAll(() => t.close());

  /** A new trader with a payment password: its token. */
  const trader = async () => {
    const token = (await t.app.inject({ method: 'POST', url: '/api/login/register', payload: await registerPayload(t.app) })).json().data.token as string;
    const set = await t.app.inject({
      method: 'POST',
      url: '/api/user/password',
      payload: { type: 'payment', old: PASSWORD, password: PAY, confirm: PAY },
      headers: { authorization: `Bearer ${token}` },
    });
    expect(set.json().code).toBe(1);
    return token;
  };
  /** A change of 1 USDT to fuel, paid with `payPassword`: the answer's code and text. */
  const change = (app: App, token: string, payPassword: string) =>
    app
      .inject({ method: 'POST', url: '/api/user/change', payload: { from: 'usdt', to: 'fuel', amount: '1', payPassword }, headers: { authorization: `Bearer ${token}`, lang: 'zh' } })
      .then((r) => r.json() as { code: number; msg: string; data: unknown });

  it('5 wrong payment passwords through one session split over two processes end it on both, as 5 on one do; a restart keeps it ended', async () => {
    const token = await trader();
    const other = await t.another();
    for (let i = 0; i < 4; i++) expect((await change(i % 2 ? other : t.app, token, '000000')).code).toBe(Code.IncorrectPassword);
    const ended = { code: Code.SessionTriesExhausted, msg: '通过本次登录输错密码或验证码的次数过多，已退出登录：请重新登录', data: null };
    expect(await change(other, token, '000000')).toEqual(ended);
    expect(await change(t.app, token, PAY)).toEqual(ended); // even the right one: the session is over
    const restarted = await t.another();
    expect(await change(restarted, token, PAY)).toEqual(ended);
  });

  it('a right payment password does not count: 4 wrong, the right one, then the 5th wrong ends the session', async () => {
    const token = await trader();
    for (let i = 0; i < 4; i++) expect((await change(t.app, token, '000000')).code).toBe(Code.IncorrectPassword);
    expect((await change(t.app, token, PAY)).code).toBe(Code.InsufficientFunds); // right: past the check, on to the balance
    expect((await change(t.app, token, '000000')).code).toBe(Code.SessionTriesExhausted);
  });

  it('5 failed logins of an account split over two processes make every login to it need a challenge, as 5 on one do; a restart keeps that', async () => {
    const account = newAccount();
    expect((await t.app.inject({ method: 'POST', url: '/api/login/register', payload: await registerPayload(t.app, { account }) })).json().code).toBe(1);
    const login = (app: App, ip: string, challenge?: string) =>
      app
        .inject({ method: 'POST', url: '/api/login/account', payload: { terminal: 1, account, password: PASSWORD, ...(challenge ? { challenge } : {}) }, remoteAddress: ip })
        .then((r) => r.json().code as number);
    const other = await t.another();
    // Each from a source of its own: no waits, only the account's own count.
    for (let i = 0; i < 5; i++) {
      const r = await (i % 2 ? other : t.app).inject({ method: 'POST', url: '/api/login/account', payload: { terminal: 1, account, password: 'Wrong2026x' }, remoteAddress: `10.150.0.${i + 1}` });
      expect(r.json().code).toBe(Code.InvalidCredentials);
    }
    const restarted = await t.another();
    expect(await login(restarted, '10.150.1.1')).toBe(Code.ChallengeRequired);
    expect(await login(other, '10.150.1.2')).toBe(Code.ChallengeRequired);
    expect(await login(restarted, '10.150.1.1', await solvedChallenge(restarted))).toBe(1);
  });

  it(
    kind === 'postgres' ? 'a source’s rate-limit budget spent on one process is spent on the other, and after a restart' : 'a source’s rate-limit budget spent before a restart is spent after it',
    async () => {
      const tight = { ...testRateLimits(), challenge: { max: 4, windowMs: 60_000 } };
      const one = await t.another({ rateLimits: tight });
      // PGlite is one process (DATA_DIR's lock): its counts are in memory until it stops.
      const two = kind === 'postgres' ? await t.another({ rateLimits: tight }) : one;
      const challenge = (app: App) => app.inject({ url: '/api/login/challenge', remoteAddress: '10.151.0.1' }).then((r) => r.statusCode);
      for (const app of [one, two, one, two]) expect(await challenge(app)).toBe(200);
      expect(await challenge(two)).toBe(429);
      if (kind === 'pglite') await one.close(); // a stop (SIGTERM)
      const restarted = await t.another({ rateLimits: tight });
      const r = await restarted.inject({ url: '/api/login/challenge', remoteAddress: '10.151.0.1', headers: { lang: 'en' } });
      expect(r.statusCode).toBe(429);
      expect(r.json()).toMatchObject({ code: Code.RateLimited, msg: expect.stringMatching(/^Too many requests, please try again in \d+ s$/), data: null });
      // Another source is not affected.
      expect((await restarted.inject({ url: '/api/login/challenge', remoteAddress: '10.151.0.2' })).statusCode).toBe(200);
    },
  );

  it(`a burst from one source ${kind === 'postgres' ? 'over two processes ' : ''}at once gets exactly the budget through`, async () => {
    const tight = { ...testRateLimits(), challenge: { max: 4, windowMs: 60_000 } };
    const one = await t.another({ rateLimits: tight });
    const two = kind === 'postgres' ? await t.another({ rateLimits: tight }) : one;
    const statuses = await Promise.all(Array.from({ length: 16 }, (_, i) => (i % 2 ? one : two).inject({ url: '/api/login/challenge', remoteAddress: '10.152.0.1' }).then((r) => r.statusCode)));
    expect(statuses.filter((s) => s === 200)).toHaveLength(4);
    expect(statuses.filter((s) => s === 429)).toHaveLength(12);
  });
});
