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
