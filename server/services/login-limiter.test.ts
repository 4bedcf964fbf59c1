import { describe, expect, it } from 'vitest';
import { LoginLimiter } from './login-limiter.ts';

const MIN = 60_000;

describe('the login limiter', () => {
  it('locks a pair, then the account, for one full window from the moment the limit is reached', () => {
    let now = 0;
    const limiter = new LoginLimiter({ windowMs: 15 * MIN, perAccountIp: 2, perAccount: 3, perIp: 100 }, () => now);
    limiter.fail('a', 'ip1');
    expect(limiter.check('a', 'ip1')).toEqual({ ok: true });
    now += 10 * MIN;
    limiter.fail('a', 'ip1');
    expect(limiter.check('a', 'ip1')).toEqual({ ok: false, reason: 'pair', minutes: 15 });
    expect(limiter.check('a', 'ip2')).toEqual({ ok: true });
    limiter.fail('a', 'ip2');
    expect(limiter.check('a', 'ip3')).toEqual({ ok: false, reason: 'account', minutes: 15 });
    now += 14 * MIN + 1;
    expect(limiter.check('a', 'ip3')).toEqual({ ok: false, reason: 'account', minutes: 1 });
    now += MIN;
    expect(limiter.check('a', 'ip1')).toEqual({ ok: true });
    // The lock is over and the counts start again from zero.
    limiter.fail('a', 'ip1');
    expect(limiter.check('a', 'ip1')).toEqual({ ok: true });
  });

  it('forgets failures older than the window', () => {
    let now = 0;
    const limiter = new LoginLimiter({ windowMs: 15 * MIN, perAccountIp: 2, perAccount: 10, perIp: 10 }, () => now);
    limiter.fail('a', 'ip');
    now += 15 * MIN;
    limiter.fail('a', 'ip');
    expect(limiter.check('a', 'ip')).toEqual({ ok: true });
  });

  it('limits an IP that tries many accounts', () => {
    const limiter = new LoginLimiter({ windowMs: MIN, perAccountIp: 5, perAccount: 5, perIp: 3 });
    for (const a of ['a', 'b', 'c']) limiter.fail(a, 'ip');
    expect(limiter.check('d', 'ip')).toMatchObject({ ok: false, reason: 'ip' });
    expect(limiter.check('d', 'other-ip')).toEqual({ ok: true });
  });

  it('forgets the pair after a success', () => {
    const limiter = new LoginLimiter({ windowMs: MIN, perAccountIp: 2, perAccount: 10, perIp: 10 });
    limiter.fail('a', 'ip');
    limiter.succeed('a', 'ip');
    limiter.fail('a', 'ip');
    expect(limiter.check('a', 'ip')).toEqual({ ok: true });
  });

  it('stays within its memory bound under a flood of distinct IPs and accounts', () => {
    const limiter = new LoginLimiter({ windowMs: MIN, perAccountIp: 5, perAccount: 5, perIp: 5 }, Date.now, 1_000);
    for (let i = 0; i < 5_000; i++) limiter.fail(`acct${i}`, `10.0.${i >> 8}.${i & 255}`);
    expect(limiter.size).toBeLessThanOrEqual(1_000);
  });
});
