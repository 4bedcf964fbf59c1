import { describe, expect, it } from 'vitest';
import { defaultLimits, readConfig } from './config.ts';

describe('the configuration', () => {
  it('has a default for every setting', () => {
    const c = readConfig({});
    expect(c).toMatchObject({
      port: 8080, host: '0.0.0.0', dataDir: './data', databaseUrl: '', sessionTtlMs: 30 * 86_400_000,
      logLevel: 'warn', staticDir: './dist', trustProxy: false, limits: defaultLimits,
    });
    expect(readConfig({ NODE_ENV: 'production' }).logLevel).toBe('error');
  });

  it('reads every setting from the environment', () => {
    const c = readConfig({
      PORT: '9000', HOST: '127.0.0.1', DATA_DIR: '/var/q', DATABASE_URL: 'postgres://db/q', SESSION_TTL_DAYS: '7',
      LOG_LEVEL: 'info', STATIC_DIR: '/srv/pwa', TRUST_PROXY: '10.0.0.0/8',
    });
    expect(c).toMatchObject({
      port: 9000, host: '127.0.0.1', dataDir: '/var/q', databaseUrl: 'postgres://db/q', sessionTtlMs: 7 * 86_400_000,
      logLevel: 'info', staticDir: '/srv/pwa', trustProxy: '10.0.0.0/8',
    });
    expect(readConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(true);
    expect(readConfig({ PORT: '0' }).port).toBe(0);
  });

  it('stops on a malformed value, naming the variable', () => {
    expect(() => readConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => readConfig({ PORT: '70000' })).toThrow(/PORT/);
    expect(() => readConfig({ SESSION_TTL_DAYS: '-1' })).toThrow(/SESSION_TTL_DAYS/);
    expect(() => readConfig({ LOG_LEVEL: 'loud' })).toThrow(/LOG_LEVEL/);
  });
});

describe('PUBLIC_ORIGIN (issue 12 finding 2)', () => {
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
