import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultLimits } from '../config.ts';
import { connectDatabase, migrate } from '../db/connect.ts';
import { SecretBox } from '../security/secret-box.ts';
import { buildApp } from './app.ts';
import { registerPayload } from '../testing/test-support.ts';

describe('start-up while the database boots', () => {
  const dist = mkdtempSync(join(tmpdir(), 'dist-'));
  writeFileSync(join(dist, 'index.html'), '<!doctype html><title>app</title>');
  afterAll(() => rmSync(dist, { recursive: true, force: true }));

  it('serves the PWA at once and lets /api calls wait until the database is migrated', async () => {
    const { db, ready } = connectDatabase();
    let migrated = false;
    const dbReady = ready
      .then(() => migrate(db))
      .then(() => {
        migrated = true;
      });
    const app = await buildApp({
      db,
      ready: dbReady,
      box: new SecretBox(randomBytes(32)),
      config: { sessionTtlMs: 86_400_000, limits: defaultLimits, staticDir: dist, logLevel: 'silent', serverIps: [], publicOrigins: ['http://localhost'] },
    });
    try {
      const page = await app.inject({ url: '/login' });
      expect(page.statusCode).toBe(200);
      expect(migrated).toBe(false);
      const reg = await app.inject({ method: 'POST', url: '/api/login/register', payload: await registerPayload(app, { account: 'early01' }) });
      expect(migrated).toBe(true);
      expect(reg.json().code).toBe(1);
    } finally {
      await app.close();
      await dbReady;
      await db.destroy();
    }
  });

  it('fails the start on an unreachable PostgreSQL instead of the first request', async () => {
    const { db, ready } = connectDatabase({ url: 'postgres://postgres@127.0.0.1:1/none' });
    await expect(ready).rejects.toThrow();
    await db.destroy();
  });
});
