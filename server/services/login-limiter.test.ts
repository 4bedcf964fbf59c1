import { describe, expect, it } from 'vitest';
import { LoginLimiter } from './login-limiter.ts';

describe('the login limiter', () => {
  it('locks a pair, then the account, for one window only', () => {
    let now = 0;
    const limiter = new LoginLimiter({ windowMs: 15 * 60_000, perAccountIp: 2, perAccount: 3, perIp: 100 }, () => now);
    limiter.fail('a', 'ip1');
    expect(limiter.check('a', 'ip1')).toEqual({ ok: true });
    limiter.fail('a', 'ip1');
    expect(limiter.check('a', 'ip1')).toEqual({ ok: false, reason: 'pair', minutes: 15 });
    expect(limiter.check('a', 'ip2')).toEqual({ ok: true });
    limiter.fail('a', 'ip2');
    expect(limiter.check('a', 'ip3')).toEqual({ ok: false, reason: 'account', minutes: 15 });
    now += 14 * 60_000 + 1;
    expect(limiter.check('a', 'ip3')).toEqual({ ok: false, reason: 'account', minutes: 1 });
    now += 60_000;
    expect(limiter.check('a', 'ip1')).toEqual({ ok: true });
  });

  it('limits an IP that tries many accounts', () => {
    const limiter = new LoginLimiter({ windowMs: 60_000, perAccountIp: 5, perAccount: 5, perIp: 3 });
    for (const a of ['a', 'b', 'c']) limiter.fail(a, 'ip');
    expect(limiter.check('d', 'ip')).toMatchObject({ ok: false, reason: 'ip' });
  });

  it('forgets the pair after a success', () => {
    const limiter = new LoginLimiter({ windowMs: 60_000, perAccountIp: 2, perAccount: 10, perIp: 10 });
    limiter.fail('a', 'ip');
    limiter.succeed('a', 'ip');
    limiter.fail('a', 'ip');
    expect(limiter.check('a', 'ip')).toEqual({ ok: true });
  });
});
