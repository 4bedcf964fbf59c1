import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbKinds, newAccount, openTestApp, type TestApp, registerPayload } from '../testing/test-support.ts';

// What must never reach a client: stack frames, source paths, hashes, internal column names.
const LEAKS = /at \/|at async|\.ts:\d+|node_modules|argon2|password_hash|payment_hash|token_hash|Error:/;

describe.each(dbKinds)('the HTTP envelope and the static PWA on %s', (kind) => {
  let t: TestApp;
  let unbuilt: TestApp;
  let dist = '';
  const logLines: string[] = [];
  beforeAll(async () => {
    dist = mkdtempSync(join(tmpdir(), 'dist-'));
    // The build inlines its boot script: the CSP allows exactly that script by its hash, and nothing else inline.
    writeFileSync(join(dist, 'index.html'), '<!doctype html><title>app</title><script>document.documentElement.lang="zh-CN"</script><script type="module" src="/assets/index-abc.js"></script>');
    writeFileSync(join(dist, 'sw.js'), 'self.x=1');
    writeFileSync(join(dist, 'manifest.webmanifest'), '{}');
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'assets', 'index-abc.js'), 'console.log(1)');
    // The build's compressed copies (vite-plugin-compression2 writes them beside each file).
    for (const file of ['index.html', join('assets', 'index-abc.js')]) {
      const text = readFileSync(join(dist, file));
      writeFileSync(join(dist, `${file}.br`), brotliCompressSync(text));
      writeFileSync(join(dist, `${file}.gz`), gzipSync(text));
    }
    t = await openTestApp(kind, {
      staticDir: dist,
      logStream: { write: (line) => void logLines.push(line) },
      extend: (app) =>
        app.get('/api/test/explode', async () => {
          throw new Error('secret detail at /work/main/server/x.ts:1');
        }),
    });
    unbuilt = await openTestApp(kind);
  });
  afterAll(async () => {
    await t.close();
    await unbuilt.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it('answers an unknown /api path with HTTP 404 and the envelope, in the request language', async () => {
    const en = await t.app.inject({ url: '/api/no/such', headers: { lang: 'en' } });
    expect(en.statusCode).toBe(404);
    expect(en.json()).toEqual({ code: 1004, msg: 'Not found', data: null });
    const zh = await t.app.inject({ method: 'POST', url: '/api/no/such' });
    expect(zh.statusCode).toBe(404);
    expect(zh.json()).toEqual({ code: 1004, msg: '接口不存在', data: null });
    // A known path with the wrong method is unknown too.
    expect((await t.app.inject({ method: 'GET', url: '/api/login/account' })).json().code).toBe(1004);
    expect((await t.app.inject({ method: 'POST', url: '/nope' })).statusCode).toBe(404);
  });

  it('answers the wallet calls with input errors in the envelope, not a 404 or a 500', async () => {
    for (const [method, url, code] of [
      ['GET', '/api/login/nonce', 4006],
      ['POST', '/api/login/verify', 4006],
      ['POST', '/api/user/bind', 101],
    ] as const) {
      const r = await t.app.inject({ method, url, ...(method === 'POST' ? { payload: {} } : {}) });
      expect(r.statusCode).toBe(200);
      expect(r.json().code).toBe(code);
    }
  });

  it('turns malformed JSON, a wrong content type and a huge body into a validation error, never a 500', async () => {
    const cases = [
      { payload: '{bad', headers: { 'content-type': 'application/json' }, part: 'request body' },
      { payload: '', headers: { 'content-type': 'application/json' }, part: 'request body' },
      { payload: 'account=x', headers: { 'content-type': 'application/x-www-form-urlencoded' }, part: 'content type' },
      { payload: 'x'.repeat(100), headers: { 'content-type': 'text/plain' }, part: 'request body' },
      { payload: '<a/>', headers: { 'content-type': 'application/xml' }, part: 'content type' },
      { payload: JSON.stringify({ terminal: 1, account: 'abcd', password: 'x'.repeat(100_000) }), headers: { 'content-type': 'application/json' }, part: 'request body (too large)' },
      { payload: '{"__proto__": {"admin": true}}', headers: { 'content-type': 'application/json' }, part: 'request body' },
    ];
    for (const c of cases) {
      const r = await t.app.inject({ method: 'POST', url: '/api/login/account', payload: c.payload, headers: { ...c.headers, lang: 'en' } });
      expect(r.statusCode, c.payload.slice(0, 20)).toBe(200);
      expect(r.json()).toEqual({ code: 1005, msg: `Validation failed: ${c.part}`, data: null });
    }
  });

  it('names what is wrong with the input, strictly: no unknown keys, no coercion', async () => {
    const post = (payload: unknown, lang = 'zh') => t.app.inject({ method: 'POST', url: '/api/login/account', payload: payload as object, headers: { lang } }).then((r) => r.json());
    expect(await post({ terminal: 1, account: 'abcd' })).toEqual({ code: 6001, msg: '缺少必填字段: 密码', data: null });
    expect(await post({ terminal: 1, account: 'abcd' }, 'en')).toEqual({ code: 6001, msg: 'A required field is missing: password', data: null });
    expect(await post({ terminal: 1, account: 'abcd', password: 'x', role: 'admin' }, 'en')).toEqual({ code: 1005, msg: 'Validation failed: unknown field role', data: null });
    expect(await post({ terminal: '1', account: 'abcd', password: 'x' }, 'en')).toEqual({ code: 1005, msg: 'Validation failed: terminal', data: null });
    expect(await post({ terminal: '1', account: 'abcd', password: 'x' })).toEqual({ code: 1005, msg: '参数校验失败: 终端', data: null });
    expect((await post([1, 2])).code).toBe(1005);
    expect((await post(null)).code).toBe(1005);
  });

  it('answers an unexpected failure with HTTP 500, a generic text and no details, and logs it without them', async () => {
    const r = await t.app.inject({ url: '/api/test/explode' });
    expect(r.statusCode).toBe(500);
    expect(r.json()).toEqual({ code: 1000, msg: '服务器错误', data: null });
    expect(r.body).not.toMatch(LEAKS);
    expect(r.body).not.toContain('secret');
    const en = await t.app.inject({ url: '/api/test/explode', headers: { lang: 'en' } });
    expect(en.json()).toEqual({ code: 1000, msg: 'Server error', data: null });
    // The operator gets what failed and where; the client got none of it.
    const logged = logLines.filter((l) => l.includes('unexpected failure'));
    expect(logged.length).toBe(2);
    expect(logged[0]).toContain('secret detail');
    expect(logged[0]).toContain('app.test.ts');
  });

  it('never logs a password, a token or an auth request body, even at trace level', async () => {
    const account = newAccount();
    const secret = 'Unlogged2026secret';
    const reg = await t.app.inject({ method: 'POST', url: '/api/login/register', payload: await registerPayload(t.app, { account, password: secret, confirm: secret }) });
    const token = reg.json().data.token as string;
    await t.app.inject({ method: 'POST', url: '/api/login/account', payload: { terminal: 1, account, password: 'Wrong2026xx' } });
    await t.app.inject({ url: '/api/auth/profile', headers: { authorization: `Bearer ${token}` } });
    await t.app.inject({ method: 'POST', url: '/api/user/password', payload: { type: 'payment', old: secret, password: '135790', confirm: '135790' }, headers: { authorization: `Bearer ${token}` } });
    const log = logLines.join('\n');
    expect(log).toContain('/api/login/register');
    for (const s of [secret, 'Wrong2026xx', token, '135790']) expect(log).not.toContain(s);
  });

  it('serves the PWA with the SPA fallback, cache rules and the security headers', async () => {
    for (const url of ['/', '/my/profile', '/register/12345678', '/index.html']) {
      const page = await t.app.inject({ url });
      expect(page.statusCode, url).toBe(200);
      expect(page.body).toContain('<title>app</title>');
      expect(page.headers['content-security-policy']).toBe(
        `default-src 'self'; script-src 'self' 'sha256-${createHash('sha256').update('document.documentElement.lang="zh-CN"').digest('base64')}'; style-src 'self' 'unsafe-inline'; img-src 'self' data: https:; connect-src 'self'; ` +
          "worker-src 'self'; manifest-src 'self'; frame-ancestors 'none'; base-uri 'self'; object-src 'none'; form-action 'self'",
      );
      expect(page.headers['cache-control']).toBe('no-cache');
      expect(page.headers['x-content-type-options']).toBe('nosniff');
      expect(page.headers['referrer-policy']).toBe('no-referrer');
    }
    const asset = await t.app.inject({ url: '/assets/index-abc.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(asset.headers['content-security-policy']).toBeUndefined();
    const sw = await t.app.inject({ url: '/sw.js' });
    expect(sw.body).toBe('self.x=1');
    expect(sw.headers['cache-control']).toBe('no-cache');
    expect((await t.app.inject({ url: '/manifest.webmanifest' })).headers['cache-control']).toBe('no-cache');
    const gone = await t.app.inject({ url: '/assets/gone-123.js' });
    expect(gone.statusCode).toBe(404);
    expect(gone.body).not.toContain('<title>');
    expect((await t.app.inject({ url: '/api/no/such' })).headers['x-content-type-options']).toBe('nosniff');
  });

  it("sends the build's brotli or gzip copy to a browser that accepts it, the same headers kept", async () => {
    for (const [encoding, inflate] of [
      ['br', brotliDecompressSync],
      ['gzip', gunzipSync],
    ] as const) {
      const asset = await t.app.inject({ url: '/assets/index-abc.js', headers: { 'accept-encoding': encoding === 'br' ? 'gzip, deflate, br' : 'gzip' } });
      expect(asset.headers['content-encoding']).toBe(encoding);
      expect(asset.headers.vary).toMatch(/accept-encoding/i);
      expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(asset.headers['content-type']).toMatch(/javascript/);
      expect(inflate(asset.rawPayload).toString()).toBe('console.log(1)');
      // The page, by its path and by the SPA fallback: compressed, with its CSP.
      for (const url of ['/index.html', '/strategy']) {
        const page = await t.app.inject({ url, headers: { 'accept-encoding': encoding } });
        expect(page.statusCode, url).toBe(200);
        expect(page.headers['content-encoding'], url).toBe(encoding);
        expect(page.headers['content-security-policy'], url).toContain("script-src 'self' 'sha256-");
        expect(page.headers['cache-control'], url).toBe('no-cache');
        expect(inflate(page.rawPayload).toString(), url).toContain('<title>app</title>');
      }
    }
    const plain = await t.app.inject({ url: '/assets/index-abc.js', headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe('console.log(1)');
  });

  it('does not serve files outside the build', async () => {
    for (const url of ['/../package.json', '/%2e%2e/package.json', '/assets/../../package.json']) {
      const r = await t.app.inject({ url });
      expect(r.body, url).not.toContain('"dependencies"');
    }
  });

  it('says plainly when the PWA is not built, and /api still works', async () => {
    const r = await unbuilt.app.inject({ url: '/login' });
    expect(r.statusCode).toBe(503);
    expect(r.headers['content-type']).toMatch(/^text\/plain/);
    expect(r.body).toBe('PWA not built: run npm run build');
    const api = await unbuilt.app.inject({ method: 'POST', url: '/api/login/register', payload: await registerPayload(unbuilt.app) });
    expect(api.json().code).toBe(1);
    expect((await unbuilt.app.inject({ url: '/api/no/such' })).statusCode).toBe(404);
  });
});
