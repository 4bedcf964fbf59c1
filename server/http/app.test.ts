import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestApp, type TestApp } from '../test-support.ts';

describe('the HTTP envelope and the static PWA', () => {
  let t: TestApp;
  let unbuilt: TestApp;
  let dist = '';
  beforeAll(async () => {
    dist = mkdtempSync(join(tmpdir(), 'dist-'));
    writeFileSync(join(dist, 'index.html'), '<!doctype html><title>app</title>');
    writeFileSync(join(dist, 'sw.js'), 'self.x=1');
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'assets', 'index-abc.js'), 'console.log(1)');
    t = await openTestApp('pglite', {
      staticDir: dist,
      extend: (app) => app.get('/api/test/explode', async () => {
        throw new Error('secret detail at /work/main/server/x.ts:1');
      }),
    });
    unbuilt = await openTestApp('pglite');
  });
  afterAll(async () => {
    await t.close();
    await unbuilt.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it('answers an unknown /api path with HTTP 404 and the envelope', async () => {
    const r = await t.app.inject({ url: '/api/no/such', headers: { lang: 'en' } });
    expect(r.statusCode).toBe(404);
    expect(r.json()).toEqual({ code: 1004, msg: 'Not found', data: null });
    expect((await t.app.inject({ method: 'POST', url: '/nope' })).statusCode).toBe(404);
  });

  it('turns malformed JSON, a wrong content type and a huge body into a validation error', async () => {
    const bad = await t.app.inject({ method: 'POST', url: '/api/login/account', payload: '{bad', headers: { 'content-type': 'application/json' } });
    expect(bad.json()).toMatchObject({ code: 1005, data: null });
    const text = await t.app.inject({ method: 'POST', url: '/api/login/account', payload: 'account=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(text.json().code).toBe(1005);
    const huge = await t.app.inject({ method: 'POST', url: '/api/login/account', payload: { terminal: 1, account: 'abcd', password: 'x'.repeat(100_000) } });
    expect(huge.json().code).toBe(1005);
    const missing = await t.app.inject({ method: 'POST', url: '/api/login/account', payload: { terminal: 1, account: 'abcd' } });
    expect(missing.json()).toMatchObject({ code: 6001, msg: '缺少必填字段: password' });
  });

  it('answers an unexpected failure with HTTP 500 and no details', async () => {
    const r = await t.app.inject({ url: '/api/test/explode' });
    expect(r.statusCode).toBe(500);
    expect(r.json()).toEqual({ code: 1000, msg: '服务器错误', data: null });
    expect(r.body).not.toMatch(/secret|\.ts/);
  });

  it('serves the PWA with the SPA fallback, cache rules and a strict CSP', async () => {
    const page = await t.app.inject({ url: '/my/profile' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<title>app</title>');
    expect(page.headers['content-security-policy']).toMatch(/default-src 'self'; script-src 'self'/);
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    const asset = await t.app.inject({ url: '/assets/index-abc.js' });
    expect(asset.headers['cache-control']).toContain('immutable');
    expect((await t.app.inject({ url: '/sw.js' })).headers['cache-control']).toBe('no-cache');
    expect((await t.app.inject({ url: '/assets/gone-123.js' })).statusCode).toBe(404);
  });

  it('says plainly when the PWA is not built', async () => {
    const r = await unbuilt.app.inject({ url: '/login' });
    expect(r.statusCode).toBe(503);
    expect(r.body).toContain('npm run build');
  });
});
