import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultLimits, type LoginLimits } from '../config.ts';
import type { Db } from '../db/connect.ts';
import { dbKinds, openTestDb } from '../testing/test-support.ts';
import { AppError } from '../errors.ts';
import { LoginLimiter, type ChallengeTaker } from './login-limiter.ts';

const MIN = 60_000;

/** A challenge taker that counts what it is given: 'ok' passes, anything else fails as the real one does. */
function challenges() {
  const seen: (string | undefined)[] = [];
  const taker: ChallengeTaker & { seen: typeof seen } = {
    seen,
    use: async (payload) => {
      seen.push(payload);
      if (payload === undefined) throw new AppError('ChallengeRequired');
      if (payload !== 'ok') throw new AppError('ChallengeFailed');
    },
  };
  return taker;
}

/** The code and values a try ends with ('go' when it may go ahead). */
async function outcome(p: Promise<void>): Promise<string> {
  try {
    await p;
    return 'go';
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    return e.options.values ? `${e.codeName} ${JSON.stringify(e.options.values)}` : e.codeName;
  }
}

describe.each(dbKinds)('the login limiter on %s', (kind) => {
  let db: Db;
  let drop: () => Promise<void>;
  let now = Date.UTC(2026, 0, 1);
  const limiter = (limits: Partial<LoginLimits> = {}) => new LoginLimiter(db, { ...defaultLimits, ...limits }, () => now);
  beforeAll(async () => ({ db, drop } = await openTestDb(kind)));
  afterAll(() => drop());

  it('lets one mistake go, then makes one account from one source wait 1, 2, 4 ... s, capped, and asks for a challenge after 3 failures', async () => {
    const l = limiter();
    const c = challenges();
    const tryIt = (challenge?: string) => outcome(l.beginLogin('alice', '10.0.0.1', challenge, c));
    expect(await tryIt()).toBe('go'); // failure 1 (counted as one until the password proves right)
    expect(await tryIt()).toBe('go'); // failure 2: no wait after the first (a typo corrected at once)
    expect(await tryIt()).toBe('RateLimited {"seconds":1}');
    now += 1000;
    expect(await tryIt()).toBe('go'); // failure 3
    now += 1999;
    expect(await tryIt()).toBe('RateLimited {"seconds":1}');
    now += 1;
    expect(await tryIt()).toBe('ChallengeRequired');
    expect(await tryIt('forged')).toBe('ChallengeFailed');
    expect(await tryIt('ok')).toBe('go'); // failure 4
    const waits: number[] = [];
    for (let i = 5; i <= 10; i++) {
      const gate = await l.loginGate('alice', '10.0.0.1');
      waits.push(gate.waitMs);
      now += gate.waitMs;
      expect(await tryIt('ok')).toBe('go');
    }
    expect(waits).toEqual([4000, 8000, 16_000, 32_000, 60_000, 60_000]);
    // Another source of the same account: no wait (below the account's challenge threshold? no: 10 failures).
    expect((await l.loginGate('alice', '10.0.0.2')).waitMs).toBe(0);
    // The right password clears the pair: the owner starts afresh from there.
    now += 60_000;
    expect(await tryIt('ok')).toBe('go');
    await l.loginSucceeded('alice', '10.0.0.1');
    expect(await l.loginGate('alice', '10.0.0.1')).toEqual({ waitMs: 0, challenge: true }); // the account's own count is still high
    // A window later everything is forgotten.
    now += 15 * MIN;
    expect(await l.loginGate('alice', '10.0.0.1')).toEqual({ waitMs: 0, challenge: false });
  });

  it('never locks: a stranger failing from many sources only makes the owner solve a challenge', async () => {
    const l = limiter();
    const c = challenges();
    // After 5 of them the stranger has to solve a challenge for every further try (a fresh source each time).
    for (let i = 0; i < 50; i++) expect(await outcome(l.beginLogin('bob', `10.1.${i >> 4}.${i & 15}`, i < 5 ? undefined : 'ok', c))).toBe('go');
    expect(await outcome(l.beginLogin('bob', '192.0.2.1', undefined, c))).toBe('ChallengeRequired');
    expect(await outcome(l.beginLogin('bob', '192.0.2.1', 'ok', c))).toBe('go');
    await l.loginSucceeded('bob', '192.0.2.1');
    // And another account from those sources is not affected (each source failed once).
    expect(await l.loginGate('carol', '10.1.0.0')).toEqual({ waitMs: 0, challenge: false });
  });

  it('asks every login from a source that failed on many accounts for a challenge', async () => {
    const l = limiter();
    const c = challenges();
    for (let i = 0; i < 10; i++) expect(await outcome(l.beginLogin(`sprayed${i}`, '10.2.0.1', undefined, c))).toBe('go');
    expect(await outcome(l.beginLogin('dave', '10.2.0.1', undefined, c))).toBe('ChallengeRequired');
    expect(await l.loginGate('dave', '10.2.0.2')).toEqual({ waitMs: 0, challenge: false });
  });

  it('lets at most two of many parallel tries of one account and source go ahead (the free mistake and one more)', async () => {
    const l = limiter();
    const c = challenges();
    const results = await Promise.all(Array.from({ length: 10 }, () => outcome(l.beginLogin('erin', '10.3.0.1', undefined, c))));
    const through = results.filter((r) => r === 'go').length;
    expect(through).toBeGreaterThanOrEqual(1);
    expect(through).toBeLessThanOrEqual(2);
    expect(results.filter((r) => r.startsWith('RateLimited'))).toHaveLength(10 - through);
  });

  it('counts an IPv6 client by its /64', async () => {
    const l = limiter();
    const c = challenges();
    expect(await outcome(l.beginLogin('frank', '2001:db8:1:2::1', undefined, c))).toBe('go');
    expect(await outcome(l.beginLogin('frank', '2001:db8:1:2::2', undefined, c))).toBe('go');
    expect(await outcome(l.beginLogin('frank', '2001:db8:1:2:ffff::9', undefined, c))).toBe('RateLimited {"seconds":1}');
    expect(await outcome(l.beginLogin('frank', '2001:db8:1:3::1', undefined, c))).toBe('go');
  });

  it('counts a session ended by its wrong tries as a failure of the account: after enough, its logins need a challenge, never a wait', async () => {
    const l = limiter({ accountChallengeAfter: 2 });
    await l.sessionExhausted('grace');
    expect(await l.loginGate('grace', '10.4.0.1')).toEqual({ waitMs: 0, challenge: false });
    await l.sessionExhausted('grace');
    expect(await l.loginGate('grace', '10.4.0.1')).toEqual({ waitMs: 0, challenge: true });
    expect(await l.loginGate('henry', '10.4.0.1')).toEqual({ waitMs: 0, challenge: false });
    now += 15 * MIN;
    expect(await l.loginGate('grace', '10.4.0.1')).toEqual({ waitMs: 0, challenge: false });
  });
});
