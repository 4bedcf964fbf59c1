import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { BACKOFF_MS, backoffMs, type ResolvedAddress, sendWebhook, signWebhook, verifyWebhookSignature } from './send.ts';

const SECRET = 'whsec_test_2b9c1f';
const NOW = Date.UTC(2026, 0, 1, 12);
const payload = { id: 'ntf_01HZX3', kind: 'order-filled', title: 'Filled', body: 'BTC/USDT buy 0.01 at 64,000', url: '/bots/7', at: NOW };

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  path: string;
}

/** A server on 127.0.0.1 that records every connection and request and answers with `answer`. */
async function receiver(answer: (res: ServerResponse, req: Received) => void = (res) => res.end('ok')) {
  const received: Received[] = [];
  let connections = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), path: req.url ?? '' };
      received.push(r);
      answer(res, r);
    });
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const stop = () => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  };
  servers.push(stop);
  return { port, url: `http://127.0.0.1:${port}`, received, connections: () => connections };
}

const servers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((stop) => stop()));
});

/** A resolver from a fixed table that counts its calls; unknown names fail as the system resolver does. */
function resolver(table: Record<string, string[]>) {
  const calls: string[] = [];
  const lookup = async (host: string): Promise<ResolvedAddress[]> => {
    calls.push(host);
    const addresses = table[host];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return { lookup, calls };
}

/** Options that let the test reach its own receiver, and nothing else on this machine. */
const trusting = (port: number) => ({ allowHttp: true, allowHosts: [`127.0.0.1:${port}`], now: () => NOW, random: () => 0.5 });

describe('sendWebhook', () => {
  it('delivers the exact payload, signed so that the receiver can check it, and a wrong secret fails the check', async () => {
    const hook = await receiver();
    const outcome = await sendWebhook({ url: `${hook.url}/quantbot?acct=7`, secret: SECRET }, payload, trusting(hook.port));
    expect(outcome).toEqual({ outcome: 'delivered', status: 200 });
    expect(hook.received).toHaveLength(1);
    const [got] = hook.received as [Received];
    expect(got.path).toBe('/quantbot?acct=7');
    expect(JSON.parse(got.body)).toEqual(payload);
    expect(got.headers).toMatchObject({
      'content-type': 'application/json',
      'user-agent': 'quantbot-webhook/1',
      'x-quantbot-event-id': payload.id,
      host: `127.0.0.1:${hook.port}`,
    });
    const signature = got.headers['x-quantbot-signature'] as string;
    expect(signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(signature).not.toContain(SECRET);
    const nowSec = NOW / 1000;
    expect(verifyWebhookSignature(SECRET, signature, got.body, nowSec)).toBe(true);
    expect(verifyWebhookSignature(SECRET, signature, Buffer.from(got.body), nowSec + 300)).toBe(true);
    expect(verifyWebhookSignature('whsec_wrong', signature, got.body, nowSec)).toBe(false);
    expect(verifyWebhookSignature(SECRET, signature, got.body.replace('0.01', '1.00'), nowSec)).toBe(false);
    // A replay after five minutes, and a header from the future, are refused.
    expect(verifyWebhookSignature(SECRET, signature, got.body, nowSec + 301)).toBe(false);
    expect(verifyWebhookSignature(SECRET, signature, got.body, nowSec - 301)).toBe(false);
    expect(verifyWebhookSignature(SECRET, undefined, got.body, nowSec)).toBe(false);
    expect(verifyWebhookSignature(SECRET, signature.replace(/v1=\w+/, 'v1=zz'), got.body, nowSec)).toBe(false);
  });

  it('accepts a header carrying a signature under the old secret and one under the new', () => {
    const body = JSON.stringify(payload);
    const t = NOW / 1000;
    const header = `${signWebhook('old', body, t)},v1=${signWebhook(SECRET, body, t).split('v1=')[1]}`;
    expect(verifyWebhookSignature(SECRET, header, body, t)).toBe(true);
    expect(verifyWebhookSignature('old', header, body, t)).toBe(true);
    expect(verifyWebhookSignature('other', header, body, t)).toBe(false);
  });

  it('refuses URLs that lead to this machine or its network, without connecting', async () => {
    const hook = await receiver();
    // The receiver's port is allowed, so that only the address can be what refuses.
    const options = { allowHttp: true, ports: [80, hook.port] };
    for (const [url, reason] of [
      [`http://127.0.0.1:${hook.port}/`, 'private'],
      [`http://2130706433:${hook.port}/`, 'private'],
      [`http://0x7f.1:${hook.port}/`, 'private'],
      [`http://[::1]:${hook.port}/`, 'private'],
      [`http://[::ffff:127.0.0.1]:${hook.port}/`, 'private'],
      [`http://[::ffff:7f00:1]:${hook.port}/`, 'private'],
      [`http://localhost:${hook.port}/`, 'host'],
      ['http://10.0.0.1/', 'private'],
      ['http://169.254.169.254/latest/meta-data', 'private'],
      ['http://[::ffff:169.254.169.254]/latest/meta-data', 'private'],
    ]) {
      expect(await sendWebhook({ url: url!, secret: SECRET }, payload, options), url).toEqual({ outcome: 'refused', reason });
    }
    expect(hook.connections()).toBe(0);
  });

  it('refuses a name when any of its addresses is private, and never connects', async () => {
    const hook = await receiver();
    const { lookup, calls } = resolver({
      'evil.test': ['10.0.0.5'],
      'loop.test': ['127.0.0.1'],
      'mixed.test': ['93.184.215.14', '127.0.0.1'],
      'mapped.test': ['::ffff:127.0.0.1'],
      'metadata.test': ['169.254.169.254'],
    });
    const options = { allowHttp: true, ports: [80, hook.port], lookup };
    for (const host of ['evil.test', 'loop.test', 'mixed.test', 'mapped.test', 'metadata.test']) {
      expect(await sendWebhook({ url: `http://${host}:${hook.port}/`, secret: SECRET }, payload, options), host).toEqual({ outcome: 'refused', reason: 'private' });
    }
    expect(calls).toEqual(['evil.test', 'loop.test', 'mixed.test', 'mapped.test', 'metadata.test']);
    expect(hook.connections()).toBe(0);
  });

  it('connects to the address it resolved once, so that a second answer (DNS rebinding) is never used', async () => {
    const hook = await receiver();
    let answers = 0;
    // The first answer is the receiver; any later one would be a black hole the attempt would time out on.
    const lookup = async (): Promise<ResolvedAddress[]> => [{ address: answers++ === 0 ? '127.0.0.1' : '10.255.255.1', family: 4 }];
    const options = { allowHttp: true, allowHosts: [`rebind.test:${hook.port}`], lookup, timeoutMs: 2_000 };
    expect(await sendWebhook({ url: `http://rebind.test:${hook.port}/`, secret: SECRET }, payload, options)).toEqual({ outcome: 'delivered', status: 200 });
    expect(answers).toBe(1);
    expect(hook.received[0]!.headers.host).toBe(`rebind.test:${hook.port}`);
  });

  it('checks every redirect as the first URL, and the target of a refused one gets nothing', async () => {
    const inside = await receiver();
    for (const location of [`http://127.0.0.1:${inside.port}/`, `http://[::1]:${inside.port}/`, 'http://169.254.169.254/latest/meta-data', 'http://10.0.0.1/']) {
      const hook = await receiver((res) => res.writeHead(302, { Location: location }).end());
      // The inside server's port is allowed, so that only the address can be what refuses.
      const outcome = await sendWebhook({ url: hook.url, secret: SECRET }, payload, { ...trusting(hook.port), ports: [80, inside.port] });
      expect(outcome, location).toEqual({ outcome: 'refused', reason: 'private' });
      expect(hook.received).toHaveLength(1);
    }
    expect(inside.connections()).toBe(0);
    expect(inside.received).toHaveLength(0);
  });

  it('follows up to three redirects with the same signed body, and refuses a fourth', async () => {
    const hook = await receiver((res, req) => {
      const hop = Number(req.path.slice(1)) || 0;
      if (hop < 3) res.writeHead(307, { Location: `/${hop + 1}` }).end();
      else res.end('ok');
    });
    expect(await sendWebhook({ url: `${hook.url}/0`, secret: SECRET }, payload, trusting(hook.port))).toEqual({ outcome: 'delivered', status: 200 });
    expect(hook.received.map((r) => r.path)).toEqual(['/0', '/1', '/2', '/3']);
    for (const r of hook.received) expect(verifyWebhookSignature(SECRET, r.headers['x-quantbot-signature'] as string, r.body, NOW / 1000)).toBe(true);

    const loop = await receiver((res) => res.writeHead(301, { Location: '/again' }).end());
    expect(await sendWebhook({ url: loop.url, secret: SECRET }, payload, trusting(loop.port))).toEqual({ outcome: 'refused', reason: 'redirects' });
    expect(loop.received).toHaveLength(4);
  });

  it('retries a 500 after the back-off step of its attempt, and a 429 after Retry-After when that is longer', async () => {
    const failing = await receiver((res) => res.writeHead(500).end());
    const send = (url: string, port: number, attempt: number) => sendWebhook({ url, secret: SECRET }, payload, { ...trusting(port), attempt });
    expect(await send(failing.url, failing.port, 0)).toEqual({ outcome: 'retry', afterMs: 30_000, reason: 'status:500' });
    expect(await send(failing.url, failing.port, 2)).toEqual({ outcome: 'retry', afterMs: 600_000, reason: 'status:500' });

    const busy = await receiver((res, req) => res.writeHead(429, { 'Retry-After': req.path === '/short' ? '5' : '7200' }).end());
    expect(await send(`${busy.url}/long`, busy.port, 0)).toEqual({ outcome: 'retry', afterMs: 7_200_000, reason: 'status:429' });
    expect(await send(`${busy.url}/short`, busy.port, 0)).toEqual({ outcome: 'retry', afterMs: 30_000, reason: 'status:429' });

    const dated = await receiver((res) => res.writeHead(503, { 'Retry-After': new Date(NOW + 3 * 3_600_000).toUTCString() }).end());
    expect(await send(dated.url, dated.port, 1)).toEqual({ outcome: 'retry', afterMs: 3 * 3_600_000, reason: 'status:503' });
  });

  it('stops at a 404 and other client errors', async () => {
    const hook = await receiver((res, req) => res.writeHead(req.path === '/gone' ? 410 : 404).end());
    expect(await sendWebhook({ url: `${hook.url}/missing`, secret: SECRET }, payload, trusting(hook.port))).toEqual({ outcome: 'rejected', status: 404 });
    expect(await sendWebhook({ url: `${hook.url}/gone`, secret: SECRET }, payload, trusting(hook.port))).toEqual({ outcome: 'rejected', status: 410 });
  });

  it('retries after a receiver that never answers, once the attempt times out', async () => {
    const hook = await receiver(() => {});
    const started = performance.now();
    expect(await sendWebhook({ url: hook.url, secret: SECRET }, payload, { ...trusting(hook.port), timeoutMs: 200 })).toEqual({
      outcome: 'retry',
      afterMs: 30_000,
      reason: 'timeout',
    });
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(hook.received).toHaveLength(1);
  });

  it('retries when nothing listens or the name does not resolve', async () => {
    const closed = await receiver();
    const port = closed.port;
    await servers.pop()!();
    expect(await sendWebhook({ url: `http://127.0.0.1:${port}/`, secret: SECRET }, payload, trusting(port))).toEqual({
      outcome: 'retry',
      afterMs: 30_000,
      reason: 'network:ECONNREFUSED',
    });
    const { lookup } = resolver({});
    expect(await sendWebhook({ url: 'https://nowhere.test/', secret: SECRET }, payload, { lookup, random: () => 0.5 })).toEqual({
      outcome: 'retry',
      afterMs: 30_000,
      reason: 'dns:ENOTFOUND',
    });
  });

  it('counts a 200 as delivered when the receiver then stalls on the body', async () => {
    const hook = await receiver((res) => {
      res.writeHead(200);
      res.write('partial');
    });
    expect(await sendWebhook({ url: hook.url, secret: SECRET }, payload, { ...trusting(hook.port), timeoutMs: 200 })).toEqual({ outcome: 'delivered', status: 200 });
  });

  it('reads no more than 64 kB of an answer', async () => {
    const hook = await receiver((res) => {
      res.writeHead(200);
      // An endless answer: the sender must stop reading by itself.
      const more = () => {
        while (res.write(Buffer.alloc(16 * 1024, 'x'))) {}
        res.once('drain', more);
      };
      more();
    });
    const started = performance.now();
    expect(await sendWebhook({ url: hook.url, secret: SECRET }, payload, { ...trusting(hook.port), timeoutMs: 3_000 })).toEqual({ outcome: 'delivered', status: 200 });
    expect(performance.now() - started).toBeLessThan(2_500);
  });
});

describe('backoffMs', () => {
  it('follows 30 s, 2 min, 10 min, 1 h, 6 h, then stays at 6 h, within ±20 %', () => {
    expect([0, 1, 2, 3, 4, 5, 40].map((a) => backoffMs(a, () => 0.5))).toEqual([...BACKOFF_MS, 21_600_000, 21_600_000]);
    expect(BACKOFF_MS).toEqual([30_000, 120_000, 600_000, 3_600_000, 21_600_000]);
    expect(backoffMs(0, () => 0)).toBe(24_000);
    expect(backoffMs(0, () => 0.999_999)).toBe(36_000);
    for (let i = 0; i < 100; i++) {
      const wait = backoffMs(1);
      expect(wait).toBeGreaterThanOrEqual(96_000);
      expect(wait).toBeLessThanOrEqual(144_000);
    }
  });
});
