import { describe, expect, it } from 'vitest';
import { defaultChallenge, defaultLimits, defaultRateLimits, readConfig } from './config.ts';

describe('the configuration', () => {
  it('has a default for every setting', () => {
    const c = readConfig({});
    expect(c).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      dataDir: './data',
      databaseUrl: '',
      sessionTtlMs: 30 * 86_400_000,
      logLevel: 'warn',
      staticDir: './dist',
      trustProxy: false,
      limits: defaultLimits,
    });
    expect(readConfig({ NODE_ENV: 'production' }).logLevel).toBe('error');
  });

  it('reads every setting from the environment', () => {
    const c = readConfig({
      PORT: '9000',
      HOST: '127.0.0.1',
      DATA_DIR: '/var/q',
      DATABASE_URL: 'postgres://db/q',
      SESSION_TTL_DAYS: '7',
      LOG_LEVEL: 'info',
      STATIC_DIR: '/srv/pwa',
      TRUST_PROXY: '10.0.0.0/8',
    });
    expect(c).toMatchObject({
      port: 9000,
      host: '127.0.0.1',
      dataDir: '/var/q',
      databaseUrl: 'postgres://db/q',
      sessionTtlMs: 7 * 86_400_000,
      logLevel: 'info',
      staticDir: '/srv/pwa',
      trustProxy: '10.0.0.0/8',
    });
    expect(readConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(readConfig({ PORT: '0' }).port).toBe(0);
  });

  it('stops on a malformed value, naming the variable', () => {
    expect(() => readConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => readConfig({ PORT: '70000' })).toThrow(/PORT/);
    expect(() => readConfig({ SESSION_TTL_DAYS: '-1' })).toThrow(/SESSION_TTL_DAYS/);
    expect(() => readConfig({ LOG_LEVEL: 'loud' })).toThrow(/LOG_LEVEL/);
  });

  it('reads the AI search history: 30 and 7 days unless AI_SEARCH_DAYS says less (the browser tests)', () => {
    expect(readConfig({}).aiSearchWindow).toEqual({ days: 30, recentDays: 7 });
    expect(readConfig({ AI_SEARCH_DAYS: '2,0.5' }).aiSearchWindow).toEqual({ days: 2, recentDays: 0.5 });
    for (const bad of ['30', '7,30', '0,0', '400,7', 'thirty,7']) expect(() => readConfig({ AI_SEARCH_DAYS: bad })).toThrow(/AI_SEARCH_DAYS/);
  });
});

describe('PUBLIC_ORIGIN', () => {
  it('defaults to the local origins of the port, and takes a list of origins', () => {
    expect(readConfig({ PORT: '9090' }).publicOrigins).toEqual(['http://localhost:9090', 'http://127.0.0.1:9090']);
    expect(readConfig({ PUBLIC_ORIGIN: 'https://app.example.com, https://m.example.com:8443/' }).publicOrigins).toEqual(['https://app.example.com', 'https://m.example.com:8443']);
  });
  it('refuses what is not an origin', () => {
    for (const bad of ['app.example.com', 'https://app.example.com/path', 'ftp://x.example', 'https://']) {
      expect(() => readConfig({ PUBLIC_ORIGIN: bad }), bad).toThrow(/PUBLIC_ORIGIN/);
    }
  });
});

describe('login limits, the challenge and rate limits (5)', () => {
  it('default to waits and challenges (no lock), a phone-sized proof of work and per-source limits', () => {
    const c = readConfig({});
    expect(c.limits).toMatchObject({ windowMs: 15 * 60_000, challengeAfter: 3, accountChallengeAfter: 5, sourceChallengeAfter: 10, delayBaseMs: 1000, delayCapMs: 60_000 });
    expect(c.challenge).toEqual(defaultChallenge);
    expect(c.rateLimits).toEqual(defaultRateLimits);
  });

  it('reads them from the environment', () => {
    const c = readConfig({
      LOGIN_CHALLENGE_AFTER: '2',
      LOGIN_ACCOUNT_CHALLENGE_AFTER: '8',
      LOGIN_SOURCE_CHALLENGE_AFTER: '20',
      LOGIN_DELAY_CAP_S: '30',
      LOGIN_WINDOW_MINUTES: '60',
      CHALLENGE_COST: '2000',
      CHALLENGE_COUNTER: '100',
      CHALLENGE_TTL_S: '300',
      RATE_LIMIT_REGISTER: '5/1h',
      RATE_LIMIT_LOGIN: '10/30s',
      RATE_LIMIT_WALLET: '20/1m',
      RATE_LIMIT_CHALLENGE: '40/1m',
      RATE_LIMIT_PUBLIC: '1000/5m',
    });
    expect(c.limits).toMatchObject({ challengeAfter: 2, accountChallengeAfter: 8, sourceChallengeAfter: 20, delayCapMs: 30_000, windowMs: 3_600_000 });
    expect(c.challenge).toEqual({ cost: 2000, counter: 100, ttlMs: 300_000 });
    expect(c.rateLimits).toMatchObject({
      register: { max: 5, windowMs: 3_600_000 },
      login: { max: 10, windowMs: 30_000 },
      wallet: { max: 20, windowMs: 60_000 },
      challenge: { max: 40, windowMs: 60_000 },
      public: { max: 1000, windowMs: 300_000 },
    });
  });

  it('refuses a malformed limit, naming the variable', () => {
    for (const bad of ['10', '10/h', '0/1m', 'ten/1m', '10/1d', '-1/1m']) expect(() => readConfig({ RATE_LIMIT_LOGIN: bad }), bad).toThrow(/RATE_LIMIT_LOGIN/);
    expect(() => readConfig({ CHALLENGE_COST: '0' })).toThrow(/CHALLENGE_COST/);
  });
});
