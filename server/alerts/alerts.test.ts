import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code } from '../../contract/codes.ts';
import { startPushService, type PushService } from '../testing/push-service.ts';
import { ScriptedMarket } from '../testing/scripted.ts';
import { openTestApp, registerPayload, type TestApp } from '../testing/test-support.ts';
import { createTrading, type Trading } from '../trading.ts';
import { verifyWebhookSignature } from '../webhooks/send.ts';
import { ALERT_TEST_LIMIT } from '../http/routes/alerts.ts';
import { AlertSender, FILL_BATCH_MS, inQuiet } from './sender.ts';

const params = { investment: '1000', firstOrder: '100', multiplier: '1', maxPositions: 5, addTrigger: '2', takeProfit: '50', repeat: true };

describe('alerts when the app is closed: pushes and the webhook', () => {
  let t: TestApp;
  let trading: Trading;
  let push: PushService;
  let receiver: Server;
  let receiverPort = 0;
  const hooks: { body: string; signature: string | undefined }[] = [];
  const market = new ScriptedMarket();
  let clock = Date.now();
  let sender: AlertSender;

  const register = async () => {
    const r = await t.app.inject({ method: 'POST', url: '/api/login/register', payload: await registerPayload(t.app) });
    const token = r.json().data.token as string;
    return { authorization: `Bearer ${token}`, lang: 'en' };
  };
  const call = (method: 'GET' | 'POST', url: string, auth: Record<string, string>, payload?: object) =>
    t.app.inject({ method, url, headers: auth, ...(payload ? { payload } : {}) }).then((r) => r.json() as { code: number; msg: string; data: never });
  const step = async (price: string) => {
    market.set('BTC/USDT', price);
    await trading.engine.tick();
    await trading.engine.idle();
  };
  const pushesTo = (id: string) => push.received(id).map((r) => JSON.parse(r.text ?? '{}') as { notification: { title: string; body: string; navigate: string; silent?: boolean; lang: string } });

  beforeAll(async () => {
    push = await startPushService();
    receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        hooks.push({ body, signature: req.headers['x-quantbot-signature'] as string | undefined });
        res.end('ok');
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    receiverPort = (receiver.address() as AddressInfo).port;
    t = await openTestApp('pglite', {
      trading: (db) => (trading = createTrading({ db, feed: market })),
      webhookPolicy: { allowHttp: true, allowHosts: [`127.0.0.1:${receiverPort}`] },
    });
    market.set('BTC/USDT', '50000');
    sender = new AlertSender({
      db: t.db,
      box: t.box,
      appOrigin: 'http://localhost',
      vapidSubject: 'mailto:ops@example.com',
      pushAgent: push.agent,
      webhookPolicy: { allowHttp: true, allowHosts: [`127.0.0.1:${receiverPort}`] },
      now: () => new Date(clock),
    });
  });
  afterAll(async () => {
    await trading.engine.stop();
    await t.close();
    await push.close();
    receiver.close();
  });

  it("pushes a bot's fills batched once a minute, to its owner's devices only, and the webhook signed", async () => {
    const a = await register();
    const b = await register();
    const deviceA = push.subscribe();
    const deviceB = push.subscribe();
    expect((await call('POST', '/api/alert/subscribe', a, { endpoint: deviceA.endpoint, keys: deviceA.keys })).code).toBe(1);
    expect((await call('POST', '/api/alert/subscribe', b, { endpoint: deviceB.endpoint, keys: deviceB.keys })).code).toBe(1);
    const hook = await call('POST', '/api/alert/webhook', a, { url: `http://127.0.0.1:${receiverPort}/hook` });
    expect(hook.code).toBe(1);
    const secret = (hook.data as { secret: string }).secret;
    expect((await call('GET', `/api/alert/settings?endpoint=${encodeURIComponent(deviceA.endpoint)}`, a)).data).toMatchObject({
      devices: 1,
      thisDevice: true,
      webhook: { url: `http://127.0.0.1:${receiverPort}/hook` },
    });
    // The secret is answered once: never again.
    expect(JSON.stringify((await call('GET', '/api/alert/settings', a)).data)).not.toContain(secret);

    await call('POST', '/api/exchanges/bind', a, { exchangeId: 1, apiKey: 'paperkey01', secretKey: 'papersecret01' });
    const bot = String(((await call('POST', '/api/user/botCreate', a, { type: 'martin', exchangeId: 1, symbol: 'BTC/USDT', params, name: 'Night owl' })).data as { id: string }).id);
    expect((await call('GET', `/api/user/botOperation?id=${bot}&action=start`, a)).code).toBe(1);
    await step('50000');
    await sender.round();
    const first = pushesTo(deviceA.id);
    expect(first).toHaveLength(1);
    expect(first[0]!.notification).toMatchObject({ title: expect.stringContaining('BTC/USDT'), body: '1 fill', navigate: `http://localhost/strategy/detail/${bot}`, lang: 'en' });
    expect(push.received(deviceA.id)[0]!.headers.urgency).toBe('low');
    expect(push.received(deviceA.id)[0]!.headers.topic).toMatch(/^[A-Za-z0-9_-]{1,32}$/);
    // B's device heard nothing of A's bot.
    expect(push.received(deviceB.id)).toHaveLength(0);
    // The webhook got the same alert, signed with the secret.
    expect(hooks).toHaveLength(1);
    expect(verifyWebhookSignature(secret, hooks[0]!.signature, hooks[0]!.body, Math.floor(Date.now() / 1000))).toBe(true);
    expect(verifyWebhookSignature('whsec_wrong', hooks[0]!.signature, hooks[0]!.body, Math.floor(Date.now() / 1000))).toBe(false);
    expect(JSON.parse(hooks[0]!.body)).toMatchObject({ kind: 'fills', body: '1 fill' });

    // Two adds within the minute: held back, then one push saying 2.
    await step('48900');
    await step('47800');
    await sender.round();
    expect(pushesTo(deviceA.id)).toHaveLength(1);
    clock += FILL_BATCH_MS + 1000;
    await sender.round();
    const all = pushesTo(deviceA.id);
    expect(all).toHaveLength(2);
    expect(all[1]!.notification.body).toBe('2 fills');
  });

  it('honours the modes (off, silent), keeps security on, quiet hours silence, and a 410 deletes the device', async () => {
    const a = await register();
    const device = push.subscribe();
    await call('POST', '/api/alert/subscribe', a, { endpoint: device.endpoint, keys: device.keys });
    const refused = await call('POST', '/api/alert/settings', a, { modes: { security: 'off' } });
    expect(refused.code).toBe(Code.ValidationError);
    expect((await call('POST', '/api/alert/settings', a, { modes: { cycles: 'silent', fills: 'off' } })).code).toBe(1);
    // The test alert reaches the device.
    expect((await call('POST', '/api/alert/test', a, {})).data).toEqual({ devices: 1, webhook: false });
    await sender.round();
    expect(pushesTo(device.id).at(-1)!.notification.body).toBe('Test alert: notifications work');
    // Quiet hours around now, in a real zone: the next alert arrives silent.
    const hhmm = (d: Date) => d.toISOString().slice(11, 16);
    const quiet = { from: hhmm(new Date(clock - 3_600_000)), to: hhmm(new Date(clock + 3_600_000)), zone: 'UTC' };
    expect(inQuiet(quiet, new Date(clock))).toBe(true);
    expect((await call('POST', '/api/alert/settings', a, { quiet })).code).toBe(1);
    await call('POST', '/api/alert/test', a, {});
    await sender.round();
    expect(pushesTo(device.id).at(-1)!.notification.silent).toBe(true);
    // The push service says the subscription is gone: it is deleted.
    push.answer(device.id, 410);
    await call('POST', '/api/alert/test', a, {});
    await sender.round();
    expect((await call('GET', '/api/alert/settings', a)).data).toMatchObject({ devices: 0 });
  });

  it("keeps each trader's alert settings, devices and webhook their own", async () => {
    const a = await register();
    const b = await register();
    const device = push.subscribe();
    await call('POST', '/api/alert/subscribe', a, { endpoint: device.endpoint, keys: device.keys });
    await call('POST', '/api/alert/webhook', a, { url: `http://127.0.0.1:${receiverPort}/a` });
    await call('POST', '/api/alert/settings', a, { modes: { fills: 'off' } });
    // B sees none of A's, and B's writes touch only B's.
    expect((await call('GET', `/api/alert/settings?endpoint=${encodeURIComponent(device.endpoint)}`, b)).data).toMatchObject({
      devices: 0,
      thisDevice: false,
      webhook: null,
      modes: { fills: 'silent' },
    });
    expect((await call('POST', '/api/alert/unsubscribe', b, { endpoint: device.endpoint })).code).toBe(1);
    await call('POST', '/api/alert/webhook/delete', b, {});
    await call('POST', '/api/alert/settings', b, { modes: { fills: 'on' } });
    expect((await call('GET', '/api/alert/settings', a)).data).toMatchObject({ devices: 1, webhook: { url: `http://127.0.0.1:${receiverPort}/a` }, modes: { fills: 'off' } });
    // B's test reaches nothing of A's.
    expect((await call('POST', '/api/alert/test', b, {})).data).toEqual({ devices: 0, webhook: false });
  });

  it('retries only the device whose push service asked for it: the one that took the alert gets it once', async () => {
    const a = await register();
    const busy = push.subscribe();
    const fine = push.subscribe();
    for (const d of [busy, fine]) await call('POST', '/api/alert/subscribe', a, { endpoint: d.endpoint, keys: d.keys });
    push.answer(busy.id, 429, { retryAfter: '30' });
    const took = (id: string) => push.received(id).filter((r) => r.status === 201).length;
    await call('POST', '/api/alert/test', a, {});
    await sender.round();
    expect([took(fine.id), took(busy.id), push.received(busy.id).length]).toEqual([1, 0, 1]);
    // Not before the Retry-After.
    await sender.round();
    expect(push.received(busy.id)).toHaveLength(1);
    push.answer(busy.id, 201);
    clock += 31_000;
    await sender.round();
    expect([took(fine.id), took(busy.id)]).toEqual([1, 1]);
    await sender.round();
    expect([took(fine.id), took(busy.id)]).toEqual([1, 1]);
  });

  it('bounds the test alerts of a trader, and of that trader only', async () => {
    const a = await register();
    const b = await register();
    for (let i = 0; i < ALERT_TEST_LIMIT.max; i++) expect((await call('POST', '/api/alert/test', a, {})).code).toBe(1);
    const refused = await call('POST', '/api/alert/test', a, {});
    expect(refused.code).toBe(Code.RateLimited);
    expect(refused.msg).toMatch(/\d+/);
    expect((await call('POST', '/api/alert/test', b, {})).code).toBe(1);
  });

  it('refuses webhooks to private and local addresses, and a logout deletes the device', async () => {
    const a = await register();
    for (const url of ['https://127.0.0.1/x', 'https://10.0.0.1/x', 'https://169.254.169.254/latest/meta-data', 'https://[::1]/x', 'https://localhost/x', 'ftp://example.com/x']) {
      const r = await call('POST', '/api/alert/webhook', a, { url });
      expect(r.code, url).toBe(Code.ValidationError);
    }
    const device = push.subscribe();
    await call('POST', '/api/alert/subscribe', a, { endpoint: device.endpoint, keys: device.keys });
    expect((await call('GET', '/api/alert/settings', a)).data).toMatchObject({ devices: 1 });
    expect((await call('POST', '/api/login/logout', a, {})).code).toBe(1);
    const left = await t.db.selectFrom('push_subscriptions').select('id').where('endpoint', '=', device.endpoint).execute();
    expect(left).toHaveLength(0);
  });
});
