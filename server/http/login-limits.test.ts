import { sql } from 'kysely';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoginChallenge, LoginData } from '../../contract/auth.ts';
import { Challenges, encodePayload, solve } from '../security/challenge.ts';
import { NONCES_PER_ADDRESS } from '../services/wallet.ts';
import { dbKinds, newAccount, openTestApp, PASSWORD, registerPayload, solvedChallenge, testChallenge, testRateLimits, type TestApp } from '../testing/test-support.ts';

/** What register and login answer (data null on an error). */
type Answer = { code: number; msg: string; data: LoginData };

/**
 * through the real app, on both databases: the proof-of-work challenge, the
 * failed-login waits and challenges that never lock the owner out, counts that outlive a restart, the
 * per-source rate limits of the calls that need no token, and the bounded wallet nonces.
 */
describe.each(dbKinds)('abuse limits on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await openTestApp(kind);
  });
  afterAll(() => t.close());

  const register = (payload: object, lang = 'zh') => t.app.inject({ method: 'POST', url: '/api/login/register', payload, headers: { lang } }).then((r) => r.json() as Answer);
  const login = (app: TestApp['app'], account: string, password: string, ip: string, challenge?: string, lang = 'zh') =>
    app
      .inject({ method: 'POST', url: '/api/login/account', payload: { terminal: 1, account, password, ...(challenge ? { challenge } : {}) }, remoteAddress: ip, headers: { lang } })
      .then((r) => r.json() as Answer);
  /** Moves every failed-login count `seconds` into the past (time passing, without waiting). */
  const age = (seconds: number) => sql`update login_attempts set last_at = last_at - ${`${seconds} seconds`}::interval`.execute(t.db);
  const newUser = async () => {
    const account = newAccount();
    expect((await register(await registerPayload(t.app, { account }))).code).toBe(1);
    return account;
  };

  describe('the proof-of-work challenge', () => {
    it('is a signed ALTCHA challenge that expires in 10 minutes', async () => {
      const r = await t.app.inject({ url: '/api/login/challenge' });
      expect(r.statusCode).toBe(200);
      const { code, data } = r.json() as { code: number; data: LoginChallenge };
      expect(code).toBe(1);
      expect(data.parameters).toMatchObject({ algorithm: 'PBKDF2/SHA-256', cost: testChallenge.cost, keyLength: 32, keyPrefix: expect.stringMatching(/^[0-9a-f]{32}$/) });
      expect(data.parameters.expiresAt * 1000 - Date.now()).toBeGreaterThan(9 * 60_000);
      expect(data.parameters.expiresAt * 1000 - Date.now()).toBeLessThanOrEqual(10 * 60_000);
      expect(data.signature).toMatch(/^[0-9a-f]{64}$/);
    });

    it('is required by every registration, in the request language', async () => {
      const { challenge: _, ...without } = await registerPayload(t.app);
      expect(await register(without)).toEqual({ code: 1021, msg: '请先完成安全验证', data: null });
      expect((await register(without, 'en')).code).toBe(1021);
      expect((await register(without, 'en')).msg).toMatch(/security check/i);
    });

    it('works once: a solved challenge registers one account, a replay fails', async () => {
      const payload = await registerPayload(t.app);
      expect((await register(payload)).code).toBe(1);
      const again = await register({ ...payload, account: newAccount() });
      expect(again).toEqual({ code: 1022, msg: '安全验证未通过或已过期，请重试', data: null });
    });

    it('works once across server processes: another process refuses a solution this one took', async () => {
      const payload = await registerPayload(t.app);
      expect((await register(payload)).code).toBe(1);
      const other = await t.another();
      const r = await other.inject({ method: 'POST', url: '/api/login/register', payload: { ...payload, account: newAccount() } });
      expect(r.json().code).toBe(1022);
      // And a challenge issued by one process is solved for the other (one key for all).
      const fresh = await registerPayload(t.app);
      expect((await other.inject({ method: 'POST', url: '/api/login/register', payload: fresh })).json().code).toBe(1);
    });

    it('refuses an expired, a wrong, a forged, a foreign and a malformed solution', async () => {
      const expired = await solve(await new Challenges(t.db, t.box.fingerprint('altcha-challenge-v1'), testChallenge).issue(Date.now() - 11 * 60_000));
      const foreign = await solve(await new Challenges(t.db, 'another installation', testChallenge).issue());
      const r = await t.app.inject({ url: '/api/login/challenge' });
      const issued = r.json().data as LoginChallenge;
      const solved = JSON.parse(Buffer.from(await solve(issued), 'base64').toString()) as { challenge: LoginChallenge; solution: { counter: number; derivedKey: string } };
      const wrong = encodePayload(issued, { counter: solved.solution.counter + 1, derivedKey: solved.solution.derivedKey.replace(/^./, (c) => (c === '0' ? '1' : '0')) });
      const easier = encodePayload({ ...issued, parameters: { ...issued.parameters, cost: 1, keyPrefix: '00' } }, solved.solution);
      const later = encodePayload({ ...issued, parameters: { ...issued.parameters, expiresAt: issued.parameters.expiresAt + 3600 } }, solved.solution);
      for (const challenge of [expired, foreign, wrong, easier, later, Buffer.from('{"challenge":1}').toString('base64'), 'bm90IGpzb24=']) {
        expect((await register(await registerPayload(t.app, { challenge }))).code, challenge.slice(0, 40)).toBe(1022);
      }
      expect((await register(await registerPayload(t.app, { challenge: 'not base64!' }))).code).toBe(1022);
      expect((await register(await registerPayload(t.app, { challenge: 'A'.repeat(5000) }))).code).toBe(1022);
      // The one that was solved right still works after all that.
      expect((await register(await registerPayload(t.app, { challenge: encodePayload(issued, solved.solution) }))).code).toBe(1);
    });
  });

  describe('failed logins', () => {
    it('let one mistake go, then make one account from one source wait 1, 2 s and ask for a challenge; the right password still gets in', async () => {
      const account = await newUser();
      const ip = '10.20.0.1';
      expect((await login(t.app, account, 'Wrong2026x', ip)).code).toBe(1011);
      expect((await login(t.app, account, 'Wrong2026x', ip)).code).toBe(1011); // no wait after one mistake
      expect(await login(t.app, account, PASSWORD, ip)).toEqual({ code: 1020, msg: '请求过于频繁，请 1 秒后再试', data: null });
      await age(1);
      expect((await login(t.app, account, 'Wrong2026x', ip)).code).toBe(1011);
      expect((await login(t.app, account, PASSWORD, ip, undefined, 'en')).msg).toBe('Too many requests, please try again in 2 s');
      await age(2);
      expect(await login(t.app, account, PASSWORD, ip)).toEqual({ code: 1021, msg: '请先完成安全验证', data: null });
      expect((await login(t.app, account, PASSWORD, ip, 'bm90IGpzb24=')).code).toBe(1022);
      expect((await login(t.app, account, PASSWORD, ip, await solvedChallenge(t.app))).code).toBe(1);
      // The right password cleared the pair: the next login from there needs nothing.
      expect((await login(t.app, account, PASSWORD, ip)).code).toBe(1);
    });

    it('never keep the owner out: 50 failures of a stranger from many sources, then the owner from a fresh one', async () => {
      const account = await newUser();
      const codes = new Set<number>();
      for (let i = 0; i < 50; i++) {
        const ip = `10.30.${i >> 3}.${i & 7}`;
        let r = await login(t.app, account, `Guess${i}2026x`, ip);
        if (r.code === 1021) r = await login(t.app, account, `Guess${i}2026x`, ip, await solvedChallenge(t.app));
        codes.add(r.code);
      }
      expect([...codes].sort()).toEqual([1011]); // wrong, never "locked" (1012) nor "too many" (1016)
      const owner = await login(t.app, account, PASSWORD, '198.51.100.7');
      expect(owner.code).toBe(1021);
      const inside = await login(t.app, account, PASSWORD, '198.51.100.7', await solvedChallenge(t.app));
      expect(inside.code).toBe(1);
      expect(inside.data.account).toBe(account);
    });

    it('look the same for an unknown account and a wrong password', async () => {
      const account = await newUser();
      const ghost = newAccount();
      const steps = async (name: string, ip: string) => {
        const seen: Answer[] = [];
        seen.push(await login(t.app, name, 'Wrong2026x', ip));
        seen.push(await login(t.app, name, 'Wrong2026x', ip));
        seen.push(await login(t.app, name, 'Wrong2026x', ip));
        await age(1);
        seen.push(await login(t.app, name, 'Wrong2026x', ip));
        await age(2);
        seen.push(await login(t.app, name, 'Wrong2026x', ip));
        return seen;
      };
      const known = await steps(account, '10.40.0.1');
      const unknown = await steps(ghost, '10.40.0.2');
      expect(unknown).toEqual(known);
      expect(known.map((a) => a.code)).toEqual([1011, 1011, 1020, 1011, 1021]);
    });

    it('are counted in the database: another process, or this one restarted, knows them', async () => {
      const account = await newUser();
      const ip = '10.50.0.1';
      for (const wait of [0, 0, 1]) {
        await age(wait);
        expect((await login(t.app, account, 'Wrong2026x', ip)).code).toBe(1011);
      }
      await age(2);
      const restarted = await t.another();
      expect((await login(restarted, account, PASSWORD, ip)).code).toBe(1021);
      expect((await login(restarted, account, PASSWORD, ip, await solvedChallenge(restarted))).code).toBe(1);
      expect((await login(t.app, account, PASSWORD, ip)).code).toBe(1);
    });

    it('let at most two of many parallel tries of one account and source through', async () => {
      const account = await newUser();
      const answers = await Promise.all(Array.from({ length: 8 }, () => login(t.app, account, 'Wrong2026x', '10.60.0.1')));
      const wrong = answers.filter((a) => a.code === 1011).length;
      expect(wrong).toBeGreaterThanOrEqual(1);
      expect(wrong).toBeLessThanOrEqual(2);
      expect(answers.filter((a) => a.code === 1020)).toHaveLength(8 - wrong);
    });
  });

  describe('rate limits of the calls that need no token', () => {
    const tight = {
      ...testRateLimits(),
      register: { max: 2, windowMs: 60_000 },
      login: { max: 3, windowMs: 60_000 },
      wallet: { max: 2, windowMs: 60_000 },
      challenge: { max: 4, windowMs: 60_000 },
    };
    const call = (app: TestApp['app'], method: 'GET' | 'POST', url: string, ip: string, payload?: object, lang = 'zh') =>
      app.inject({ method, url, remoteAddress: ip, headers: { lang }, ...(payload ? { payload } : {}) });

    it('answer HTTP 429 with code 1020 and the wait, per source: another source goes on', async () => {
      const app = await t.another({ rateLimits: tight });
      const reg = { terminal: 1, account: newAccount(), password: PASSWORD, confirm: PASSWORD };
      for (let i = 0; i < 2; i++) expect((await call(app, 'POST', '/api/login/register', '10.70.0.1', reg)).json().code).toBe(1021);
      const limited = await call(app, 'POST', '/api/login/register', '10.70.0.1', reg);
      expect(limited.statusCode).toBe(429);
      expect(limited.json()).toEqual({ code: 1020, msg: '请求过于频繁，请 60 秒后再试', data: null });
      expect(limited.headers['retry-after']).toBe('60');
      expect(limited.headers['cache-control']).toBe('no-store');
      const en = await call(app, 'POST', '/api/login/register', '10.70.0.1', reg, 'en');
      expect(en.statusCode).toBe(429);
      expect(en.json()).toEqual({ code: 1020, msg: 'Too many requests, please try again in 60 s', data: null });
      expect((await call(app, 'POST', '/api/login/register', '10.70.0.2', reg)).json().code).toBe(1021);
      // Login, the wallet's nonce and verify, the challenge: each its own budget.
      for (let i = 0; i < 3; i++) expect((await call(app, 'POST', '/api/login/account', '10.70.0.1', { terminal: 1, account: newAccount(), password: 'Wrong2026x' })).statusCode).toBe(200);
      expect((await call(app, 'POST', '/api/login/account', '10.70.0.1', { terminal: 1, account: newAccount(), password: 'Wrong2026x' })).statusCode).toBe(429);
      const address = privateKeyToAccount(generatePrivateKey()).address;
      for (let i = 0; i < 2; i++) expect((await call(app, 'GET', `/api/login/nonce?address=${address}`, '10.70.0.1')).json().code).toBe(1);
      expect((await call(app, 'GET', `/api/login/nonce?address=${address}`, '10.70.0.1')).statusCode).toBe(429);
      for (let i = 0; i < 2; i++) expect((await call(app, 'POST', '/api/login/verify', '10.70.0.1', { terminal: 4, address, signature: '0x00' })).statusCode).toBe(200);
      expect((await call(app, 'POST', '/api/login/verify', '10.70.0.1', { terminal: 4, address, signature: '0x00' })).statusCode).toBe(429);
      for (let i = 0; i < 4; i++) expect((await call(app, 'GET', '/api/login/challenge', '10.70.0.1')).json().code).toBe(1);
      expect((await call(app, 'GET', '/api/login/challenge', '10.70.0.1')).statusCode).toBe(429);
      // Health, and the calls behind a token, are not counted here.
      for (let i = 0; i < 10; i++) expect((await call(app, 'GET', '/api/health', '10.70.0.1')).statusCode).toBe(200);
      expect((await call(app, 'GET', '/api/auth/profile', '10.70.0.1')).json().code).toBe(101);
    });

    it('see the client behind a trusted proxy (TRUST_PROXY)', async () => {
      const app = await t.another({ rateLimits: tight, trustProxy: 1 });
      const via = (client: string) => app.inject({ url: '/api/login/challenge', remoteAddress: '127.0.0.1', headers: { 'x-forwarded-for': client } });
      for (let i = 0; i < 4; i++) expect((await via('203.0.113.10')).statusCode).toBe(200);
      expect((await via('203.0.113.10')).statusCode).toBe(429);
      expect((await via('203.0.113.11')).statusCode).toBe(200);
    });

    it(kind === 'postgres' ? 'are counted in PostgreSQL: two processes share one budget' : 'are counted in memory on PGlite (one process), and kept in the database across a restart', async () => {
      if (kind === 'pglite') {
        const one = await t.another({ rateLimits: tight });
        const two = await t.another({ rateLimits: tight });
        for (const app of [one, two, one, two, two, two]) expect((await call(app, 'GET', '/api/login/challenge', '10.80.0.1')).statusCode).toBe(200);
        expect((await call(two, 'GET', '/api/login/challenge', '10.80.0.1')).statusCode).toBe(429);
        expect((await call(one, 'GET', '/api/login/challenge', '10.80.0.1')).statusCode).toBe(200);
        expect(await t.db.selectFrom('rate_limits').selectAll().where('key', 'like', '10.80.0.1%').execute()).toEqual([]);
        // A stop writes the counts down, the next start reads them back.
        await two.close();
        expect(await t.db.selectFrom('rate_limits').selectAll().where('key', 'like', '10.80.0.1%').execute()).toMatchObject([{ key: '10.80.0.1loginChallenge', count: 5 }]);
        const restarted = await t.another({ rateLimits: tight });
        expect((await call(restarted, 'GET', '/api/login/challenge', '10.80.0.1')).statusCode).toBe(429);
        expect((await call(restarted, 'GET', '/api/login/challenge', '10.80.0.2')).statusCode).toBe(200);
        return;
      }
      // A short window, to see the next one start.
      const shared = { ...tight, challenge: { max: 4, windowMs: 3000 } };
      const one = await t.another({ rateLimits: shared });
      const two = await t.another({ rateLimits: shared });
      const started = Date.now();
      for (const app of [one, two, one, two]) expect((await call(app, 'GET', '/api/login/challenge', '10.80.0.1')).statusCode).toBe(200);
      expect((await call(one, 'GET', '/api/login/challenge', '10.80.0.1')).statusCode).toBe(429);
      expect((await call(two, 'GET', '/api/login/challenge', '10.80.0.1')).statusCode).toBe(429);
      // Each process asked the database once past the limit; then it refuses the source itself until the window ends.
      for (const app of [one, two]) expect((await call(app, 'GET', '/api/login/challenge', '10.80.0.1')).statusCode).toBe(429);
      const row = await t.db.selectFrom('rate_limits').selectAll().where('key', 'like', '10.80.0.1%').executeTakeFirstOrThrow();
      expect(row).toMatchObject({ key: '10.80.0.1loginChallenge', count: 6 });
      expect(Date.now() - started).toBeLessThan(3000); // (else the window ended during the test: too slow a machine)
      // A new window starts from zero, in both: wait for the window's end by the database's clock (it
      // opened at the first upsert, which a loaded machine answers well after `started`; each process's
      // memory of the refusal ends a round trip after the window).
      const { rows } = await sql<{ ms: number }>`select greatest(0, extract(epoch from (reset_at - now())) * 1000)::float8 as ms from rate_limits where key = '10.80.0.1loginChallenge'`.execute(t.db);
      await new Promise((r) => setTimeout(r, Number(rows[0]?.ms ?? 0) + 300));
      expect((await call(two, 'GET', '/api/login/challenge', '10.80.0.1')).statusCode).toBe(200);
      expect((await call(one, 'GET', '/api/login/challenge', '10.80.0.1')).statusCode).toBe(200);
    });
  });

  describe('wallet nonces', () => {
    it(`are kept ${NONCES_PER_ADDRESS} unused per address, the newest; expired ones are purged`, async () => {
      const w = privateKeyToAccount(generatePrivateKey());
      const nonce = () => t.app.inject({ url: `/api/login/nonce?address=${w.address}` }).then((r) => r.json().data as { nonce: string; message: string });
      const issued = [];
      for (let i = 0; i < 6; i++) issued.push(await nonce());
      const rows = await t.db.selectFrom('wallet_nonces').select('nonce').where('address', '=', w.address).execute();
      expect(rows.map((r) => r.nonce).sort()).toEqual(
        issued
          .slice(-NONCES_PER_ADDRESS)
          .map((n) => n.nonce)
          .sort(),
      );
      // The oldest kept one still signs in; a dropped one does not.
      const verify = (n: { message: string }) =>
        w
          .signMessage({ message: n.message })
          .then((signature) =>
            t.app.inject({ method: 'POST', url: '/api/login/verify', payload: { terminal: 4, address: w.address, signature, message: n.message } }).then((r) => r.json().code as number),
          );
      expect(await verify(issued[0]!)).toBe(2110);
      expect(await verify(issued[6 - NONCES_PER_ADDRESS]!)).toBe(1);
      // Expired rows of any address go when the next nonce is issued.
      await t.db
        .updateTable('wallet_nonces')
        .set({ expires_at: new Date(Date.now() - 1000) })
        .where('address', '=', w.address)
        .execute();
      const other = privateKeyToAccount(generatePrivateKey());
      await t.app.inject({ url: `/api/login/nonce?address=${other.address}` });
      expect(await t.db.selectFrom('wallet_nonces').select('nonce').where('address', '=', w.address).execute()).toEqual([]);
    });
  });
});
