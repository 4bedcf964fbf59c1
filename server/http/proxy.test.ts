import type { FastifyInstance } from 'fastify';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code } from '../../contract/codes.ts';
import { readConfig } from '../config.ts';
import { dbKinds, newAccount, openTestApp, PASSWORD, registerUser, testRateLimits, type TestApp } from '../testing/test-support.ts';
import { sendFrom, startProxy, type TestProxy } from './proxy-support.ts';

/**
 * TRUST_PROXY behind real reverse proxies (proxy-support.ts: each hop appends the address that
 * connected to it to X-Forwarded-For, as nginx does). Every machine here is a loopback address of its
 * own: clients 127.0.0.1x, the proxies 127.0.0.2 (next to the server) and 127.0.0.3. Whatever a client
 * writes into X-Forwarded-For, the limits count the client itself, and a login alert names it.
 */
describe.each(dbKinds)('the client behind reverse proxies (%s)', (kind) => {
  let t: TestApp;
  const closing: (() => Promise<unknown>)[] = [];
  const tight = { ...testRateLimits(), challenge: { max: 4, windowMs: 60_000 } };

  /** A listening server with TRUST_PROXY as the environment says it, and `hops` proxies in front of it (the outermost first in the answer). */
  const serve = async (trustProxy: string, hops: number) => {
    const app: FastifyInstance = await t.another({ rateLimits: tight, trustProxy: readConfig({ TRUST_PROXY: trustProxy }).trustProxy });
    await app.listen({ port: 0, host: '127.0.0.1' });
    let next = { port: (app.server.address() as AddressInfo).port };
    const server = next.port;
    const proxies: TestProxy[] = [];
    for (let i = 0; i < hops; i++) {
      const proxy = await startProxy(next, `127.0.0.${2 + i}`);
      closing.push(proxy.close);
      proxies.unshift(proxy);
      next = proxy;
    }
    return { entry: next.port, server };
  };
  const challenge = (client: string, port: number, spoof?: string) => sendFrom(client, port, 'GET', '/api/login/challenge', spoof === undefined ? {} : { headers: { 'x-forwarded-for': spoof } });
  /** What a client gets for `spoofs.length` challenges, each claiming another source. */
  const statuses = async (client: string, port: number, spoofs: string[]) => {
    const out: number[] = [];
    for (const spoof of spoofs) out.push((await challenge(client, port, spoof)).status);
    return out;
  };
  const spoofs = ['203.0.113.1', 'not-an-ip-7', '198.51.100.2, 203.0.113.3', '10.0.0.1', '127.0.0.99', '::1'];
  const keysOf = async (suffix: string) => (await t.db.selectFrom('rate_limits').select('key').where('key', 'like', `%${suffix}`).execute()).map((r) => r.key);

  beforeAll(async () => {
    t = await openTestApp(kind);
  });
  afterAll(async () => {
    for (const close of closing) await close();
    await t.close();
  });

  it.each([
    ['one hop, TRUST_PROXY=1', '1', 1, '127.0.0.11', '127.0.0.12'],
    ['two hops, TRUST_PROXY=2', '2', 2, '127.0.0.13', '127.0.0.14'],
    ['two hops, TRUST_PROXY as the proxies’ addresses', '127.0.0.2, 127.0.0.3/32', 2, '127.0.0.15', '127.0.0.16'],
  ])('%s: a client spoofing X-Forwarded-For is limited as itself, another client is not', async (_, trust, hops, client, other) => {
    const { entry } = await serve(trust, hops);
    // Six requests, each naming another source: the fifth is over the client's budget of four.
    expect(await statuses(client, entry, spoofs)).toEqual([200, 200, 200, 200, 429, 429]);
    const refused = await challenge(client, entry, '192.0.2.77');
    expect(refused.body).toMatchObject({ code: Code.RateLimited, data: null });
    expect((await challenge(other, entry)).status).toBe(200);
    if (kind === 'postgres') {
      // Counted in the shared table: one row per real client, none for what a client wrote.
      const keys = await keysOf('loginChallenge');
      expect(keys.filter((k) => k.startsWith(client) || k.startsWith(other)).sort()).toEqual([`${client}loginChallenge`, `${other}loginChallenge`]);
      expect(keys.some((k) => /203\.0\.113|not-an-ip|198\.51|192\.0\.2/.test(k))).toBe(false);
    }
  });

  it('counts a client that bypasses a listed proxy as itself, whatever it writes', async () => {
    const { server } = await serve('127.0.0.2', 1);
    expect(await statuses('127.0.0.17', server, spoofs)).toEqual([200, 200, 200, 200, 429, 429]);
  });

  it('names in the login alert, and counts in the login limits, the address the rate limits use: never text a client wrote', async () => {
    const { entry } = await serve('1', 1);
    const account = newAccount();
    await registerUser(t.app, { account });
    const login = (client: string, spoof: string, password = PASSWORD) =>
      sendFrom(client, entry, 'POST', '/api/login/account', { headers: { 'x-forwarded-for': spoof, 'user-agent': `phone-${client}` }, body: { terminal: 2, account, password } });
    const wrong = await login('127.0.0.18', 'not-an-ip-7', 'Wrong2026x');
    expect(wrong.body.code).toBe(Code.InvalidCredentials);
    // The failure is counted for the client, by account and source, never for what it wrote.
    const attempts = (await t.db.selectFrom('login_attempts').select('key').execute()).map((r) => r.key);
    expect(attempts).toEqual(expect.arrayContaining([`l:p:${account}|127.0.0.18`, 'l:s:127.0.0.18']));
    expect(attempts.join(' ')).not.toContain('not-an-ip');
    const ok = await login('127.0.0.18', 'not-an-ip-7');
    expect(ok.body.code).toBe(Code.Success);
    const token = (ok.body.data as { token: string }).token;
    const notices = await sendFrom('127.0.0.18', entry, 'GET', '/api/notice/list?page_size=50', { headers: { authorization: `Bearer ${token}` } });
    const alerts = (notices.body.data as { list: { code: string; detail: Record<string, string> }[] }).list.filter((n) => n.code === 'security_login');
    expect(alerts.map((n) => n.detail.ip)).toEqual(['127.0.0.18']);
  });

  it.each([
    ['two hops trusted, one proxy in front: the hop beyond it is what the client wrote', '2', '127.0.0.19'],
    ['the listed addresses hold the client itself', '127.0.0.2,127.0.0.20', '127.0.0.20'],
  ])('replaces a source that is not an IP address by the address of the socket (%s)', async (_, trust, client) => {
    const { entry } = await serve(trust, 1);
    const account = newAccount();
    await registerUser(t.app, { account });
    const ok = await sendFrom(client, entry, 'POST', '/api/login/account', {
      headers: { 'x-forwarded-for': 'not-an-ip-7', 'user-agent': `phone-${client}` },
      body: { terminal: 2, account, password: PASSWORD },
    });
    expect(ok.body.code).toBe(Code.Success);
    const token = (ok.body.data as { token: string }).token;
    const notices = await sendFrom(client, entry, 'GET', '/api/notice/list?page_size=50', { headers: { authorization: `Bearer ${token}` } });
    const alerts = (notices.body.data as { list: { code: string; detail: Record<string, string> }[] }).list.filter((n) => n.code === 'security_login');
    expect(alerts.map((n) => n.detail.ip)).toEqual(['127.0.0.2']);
  });
});

describe('TRUST_PROXY', () => {
  it('takes a hop count as a number, or proxy addresses and CIDRs', () => {
    expect(readConfig({}).trustProxy).toBe(false);
    expect(readConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(readConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(readConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(readConfig({ TRUST_PROXY: '10.0.0.0/8, 192.168.1.7,fd00::/8' }).trustProxy).toBe('10.0.0.0/8,192.168.1.7,fd00::/8');
  });

  it.each(['true', '*', 'all', 'yes', '0.0.0.0/0', '::/0', '10.0.0.1,0.0.0.0/0'])('refuses to trust every hop (%s), naming the variable', (value) => {
    expect(() => readConfig({ TRUST_PROXY: value })).toThrow(/^TRUST_PROXY .*every/);
  });

  it.each(['proxy.example', '10.0.0.0/33', '-1', '1.5', '10.0.0.1,,', '999'])('refuses a value that is neither a hop count nor addresses (%s)', (value) => {
    expect(() => readConfig({ TRUST_PROXY: value })).toThrow(/^TRUST_PROXY /);
  });
});
