import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code } from '../../contract/codes.ts';
import { dbKinds, openTestApp, registerUser, testRateLimits, type TestApp } from '../testing/test-support.ts';

/**
 * Calls behind a token are limited per trader (RATE_LIMIT_USER), by the user id: a trader spraying
 * calls from many addresses is limited all the same, and one trader's limit never limits another.
 */
describe.each(dbKinds)('per-trader rate limits (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await openTestApp(kind, { config: { rateLimits: { ...testRateLimits(), user: { max: 5, windowMs: 60_000 } } } });
  });
  afterAll(() => t.close());

  const call = (token: string, from: string, url = '/api/auth/profile') => t.app.inject({ url, remoteAddress: from, headers: { authorization: `Bearer ${token}`, lang: 'en' } });

  it('answers 1020 with the seconds to a trader over the limit, from whatever address, while another trader goes on', async () => {
    const alice = (await registerUser(t.app)).token;
    const bob = (await registerUser(t.app)).token;
    for (let i = 0; i < 5; i++) expect((await call(alice, `198.51.100.${i + 1}`)).json().code).toBe(Code.Success);
    const over = await call(alice, '198.51.100.99', '/api/user/botList');
    expect(over.statusCode).toBe(429);
    expect(over.json()).toEqual({ code: Code.RateLimited, msg: 'Too many requests, please try again in 60 s', data: null });
    expect(over.headers['cache-control']).toBe('no-store');
    // Bob, from Alice's own address too, is not limited by her calls.
    for (let i = 0; i < 5; i++) expect((await call(bob, '198.51.100.1')).json().code).toBe(Code.Success);
    expect((await call(bob, '198.51.100.1')).statusCode).toBe(429);
  });

  it('counts nothing for a call without a valid token, and no public call against a trader', async () => {
    const carol = (await registerUser(t.app)).token;
    for (let i = 0; i < 8; i++) expect((await call('not-a-token', '198.51.100.50')).json().code).not.toBe(Code.RateLimited);
    for (let i = 0; i < 8; i++) expect((await t.app.inject({ url: '/api/login/challenge', headers: { authorization: `Bearer ${carol}` } })).json().code).toBe(Code.Success);
    for (let i = 0; i < 5; i++) expect((await call(carol, '198.51.100.51')).json().code).toBe(Code.Success);
  });
});
