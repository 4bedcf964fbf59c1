import { createPrivateKey, sign } from 'node:crypto';
import { request } from 'node:https';
import { createServer } from 'node:net';
import webPush from 'web-push';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPushService, type PushService, type TestSubscription } from '../testing/push-service.ts';
import { declarativePush, encodePayload, PushSetupError } from './payload.ts';
import { DEFAULT_RETRY_MS, isValidTopic, MAX_RETRY_MS, type PushMessage, retryAfterMs, sendPush, topicOf } from './send.ts';
import { checkVapid, generateVapidKeys, type Vapid } from './vapid.ts';

const vapid: Vapid = { subject: 'mailto:ops@quantbot.example', ...generateVapidKeys() };
const message: PushMessage = {
  payload: declarativePush({ title: 'Order filled', body: 'BTC/USDT bought 0.01 at 61,200', navigate: '/bots/42', lang: 'en', badge: 2 }, 'https://app.example'),
  ttlSeconds: 3600,
  urgency: 'normal',
};

let service: PushService;
beforeAll(async () => {
  service = await startPushService();
});
afterAll(() => service.close());

const send = (subscription: TestSubscription, m: PushMessage = message, v: Vapid = vapid) => sendPush(subscription, m, v, { agent: service.agent, timeoutMs: 5000 });
const only = (subscription: TestSubscription) => {
  const received = service.received(subscription.id);
  expect(received).toHaveLength(1);
  return received[0]!;
};

describe('a push message through a push service', () => {
  it('arrives aes128gcm-encrypted for the subscription and decrypts to the declarative JSON', async () => {
    const subscription = service.subscribe();
    expect(await send(subscription)).toEqual({ outcome: 'sent' });
    const received = only(subscription);
    expect(received).toMatchObject({ status: 201, headers: { 'content-encoding': 'aes128gcm', 'content-type': 'application/octet-stream' } });
    expect(JSON.parse(received.text!)).toEqual(message.payload);
  });

  it('is signed with a VAPID token for the push service origin, expiring within 24 h, with the mailto subject and our public key', async () => {
    const subscription = service.subscribe();
    const before = Math.floor(Date.now() / 1000);
    await send(subscription);
    const { status, vapid: token } = only(subscription);
    expect(status).toBe(201);
    expect(token).toMatchObject({ aud: service.origin, sub: vapid.subject, publicKey: vapid.publicKey });
    expect(token!.exp).toBeGreaterThan(before);
    expect(token!.exp).toBeLessThanOrEqual(before + 24 * 3600 + 5);
  });

  it('carries TTL, Urgency and Topic as given', async () => {
    const subscription = service.subscribe();
    const topic = topicOf('fill', 'bot-42');
    await send(subscription, { ...message, ttlSeconds: 0, urgency: 'high', topic });
    expect(only(subscription)).toMatchObject({ status: 201, headers: { ttl: '0', urgency: 'high', topic } });
  });

  it('sends no Topic header without a topic', async () => {
    const subscription = service.subscribe();
    await send(subscription, { ...message, urgency: 'very-low' });
    const { status, headers } = only(subscription);
    expect(status).toBe(201);
    expect(headers.urgency).toBe('very-low');
    expect(headers).not.toHaveProperty('topic');
  });
});

describe("the push service's answer, as an outcome", () => {
  it.each([404, 410])('%i: gone (the caller deletes the subscription)', async (status) => {
    const subscription = service.subscribe();
    service.answer(subscription.id, status);
    expect(await send(subscription)).toEqual({ outcome: 'gone' });
  });

  it('gone for an endpoint the push service does not know', async () => {
    const subscription = { ...service.subscribe(), endpoint: `${service.origin}/push/forgotten` };
    expect(await send(subscription)).toEqual({ outcome: 'gone' });
  });

  it('413: too-big', async () => {
    const subscription = service.subscribe();
    service.answer(subscription.id, 413);
    expect(await send(subscription)).toEqual({ outcome: 'too-big' });
  });

  it('429 with Retry-After in seconds: retry after that many milliseconds', async () => {
    const subscription = service.subscribe();
    service.answer(subscription.id, 429, { retryAfter: '3' });
    expect(await send(subscription)).toEqual({ outcome: 'retry', afterMs: 3000 });
  });

  it('500 and 503 without Retry-After: retry after the default back-off; a Retry-After of a day is capped', async () => {
    const subscription = service.subscribe();
    service.answer(subscription.id, 500);
    expect(await send(subscription)).toEqual({ outcome: 'retry', afterMs: DEFAULT_RETRY_MS });
    service.answer(subscription.id, 503, { retryAfter: '86400' });
    expect(await send(subscription)).toEqual({ outcome: 'retry', afterMs: MAX_RETRY_MS });
  });

  it('another 4xx: failed, with the status and what the push service said', async () => {
    const subscription = service.subscribe();
    service.answer(subscription.id, 400, { body: '{"reason":"BadDeviceToken"}' });
    expect(await send(subscription)).toEqual({ outcome: 'failed', status: 400, reason: '{"reason":"BadDeviceToken"}' });
  });

  it('no push service listening: failed, naming the refused connection', async () => {
    const port = await closedPort();
    const subscription = { ...service.subscribe(), endpoint: `https://127.0.0.1:${port}/push/x` };
    expect(await send(subscription)).toMatchObject({ outcome: 'failed', reason: expect.stringContaining('ECONNREFUSED') });
  });

  it('a push service that never answers: failed once the socket has been idle for timeoutMs', async () => {
    const subscription = service.subscribe();
    service.stall(subscription.id);
    const started = Date.now();
    expect(await sendPush(subscription, message, vapid, { agent: service.agent, timeoutMs: 300 })).toEqual({ outcome: 'failed', reason: 'Socket timeout' });
    expect(Date.now() - started).toBeLessThan(4000);
  });

  it('an endpoint that is not https: failed, nothing sent', async () => {
    const subscription = { ...service.subscribe(), endpoint: 'http://127.0.0.1:1/push/x' };
    expect(await send(subscription)).toMatchObject({ outcome: 'failed', reason: expect.stringContaining('not an https URL') });
  });
});

describe('Retry-After', () => {
  const now = Date.parse('2026-03-01T12:00:00Z');
  it('reads delay-seconds and an HTTP-date; a date in the past means now; garbage or nothing means the default', () => {
    expect(retryAfterMs('120', now)).toBe(120_000);
    expect(retryAfterMs('Sun, 01 Mar 2026 12:02:00 GMT', now)).toBe(120_000);
    expect(retryAfterMs('Sun, 01 Mar 2026 11:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('soon', now)).toBe(DEFAULT_RETRY_MS);
    expect(retryAfterMs(undefined, now)).toBe(DEFAULT_RETRY_MS);
  });
});

describe('the test push service checks VAPID, so a sender that signs wrongly fails', () => {
  const keys = () => ({ subject: 'mailto:ops@quantbot.example', ...generateVapidKeys() });
  const now = () => Math.floor(Date.now() / 1000);
  const claims = () => ({ aud: service.origin, exp: now() + 3600, sub: vapid.subject });

  it('accepts a token made by hand the way RFC 8292 says (the control for the refusals below)', async () => {
    const subscription = service.subscribe();
    expect(await post(subscription, `vapid t=${token(claims(), vapid)}, k=${vapid.publicKey}`)).toBe(201);
  });

  it.each([
    ['signed by another key than k', () => `vapid t=${token(claims(), keys())}, k=${vapid.publicKey}`, /not signed by k/],
    ['expired', () => `vapid t=${token({ ...claims(), exp: now() - 60 }, vapid)}, k=${vapid.publicKey}`, /expired/],
    ['expiring in 25 hours', () => `vapid t=${token({ ...claims(), exp: now() + 25 * 3600 }, vapid)}, k=${vapid.publicKey}`, /more than 24 hours/],
    ['for another audience', () => `vapid t=${token({ ...claims(), aud: 'https://push.example' }, vapid)}, k=${vapid.publicKey}`, /aud/],
    ['with an https subject', () => `vapid t=${token({ ...claims(), sub: 'https://localhost' }, vapid)}, k=${vapid.publicKey}`, /mailto/],
    ['missing', () => '', /authorization/],
  ])('refuses a token %s with 401', async (_, authorization, why) => {
    const subscription = service.subscribe();
    expect(await post(subscription, authorization())).toBe(401);
    expect(only(subscription).refused).toMatch(why);
  });

  it('refuses a body whose tag does not match (tampered in transit)', async () => {
    const subscription = service.subscribe();
    expect(await post(subscription, undefined, (body) => body.fill(0, body.length - 4))).toBe(400);
    expect(only(subscription).refused).toMatch(/does not decrypt/);
  });
});

describe('refused before anything is sent', () => {
  it.each(['https://localhost', 'https://quantbot.example/contact', 'ops@quantbot.example', 'mailto:'])('a VAPID subject that is not a mailto: address: %s', async (subject) => {
    const subscription = service.subscribe();
    await expect(send(subscription, message, { ...vapid, subject })).rejects.toThrow(/mailto: address/);
    expect(service.received(subscription.id)).toEqual([]);
  });

  it('VAPID keys of two different pairs, or of the wrong size', () => {
    expect(() => checkVapid({ ...vapid, publicKey: generateVapidKeys().publicKey })).toThrow(/not the private key's/);
    expect(() => checkVapid({ ...vapid, privateKey: vapid.privateKey.slice(0, 20) })).toThrow(/must be 32/);
    expect(checkVapid(vapid)).toBe(vapid);
  });

  it.each(['a=b', 'x'.repeat(33), '', 'bot 42'])('a topic outside 1..32 base64url characters: "%s"', async (topic) => {
    await expect(send(service.subscribe(), { ...message, topic })).rejects.toThrow(PushSetupError);
  });

  it('a TTL that is negative or fractional', async () => {
    await expect(send(service.subscribe(), { ...message, ttlSeconds: -1 })).rejects.toThrow(/TTL/);
    await expect(send(service.subscribe(), { ...message, ttlSeconds: 1.5 })).rejects.toThrow(/TTL/);
  });

  it('a payload over the size limit, even one built without declarativePush', async () => {
    const big = { ...message.payload, notification: { ...message.payload.notification, body: 'x'.repeat(3500) } };
    const subscription = service.subscribe();
    await expect(send(subscription, { ...message, payload: big })).rejects.toThrow(/over the 3000/);
    expect(service.received(subscription.id)).toEqual([]);
  });
});

describe('topicOf', () => {
  it('gives 32 base64url characters, the same for the same kind and key, another for another', () => {
    const topic = topicOf('fill', 'bot-42');
    expect(topic).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(isValidTopic(topic)).toBe(true);
    expect(topicOf('fill', 'bot-42')).toBe(topic);
    expect(topicOf('fill', 'bot-43')).not.toBe(topic);
    expect(topicOf('fill-bot', '42')).not.toBe(topicOf('fill', 'bot-42'));
    expect(topicOf('stop', '机器人 42 / ünïcode')).toMatch(/^[A-Za-z0-9_-]{32}$/);
  });
});

/** An ES256 JWT signed by `signer`, built on node:crypto rather than web-push's signer. */
function token(claims: object, signer: Pick<Vapid, 'publicKey' | 'privateKey'>): string {
  const point = Buffer.from(signer.publicKey, 'base64url');
  const key = createPrivateKey({
    key: { kty: 'EC', crv: 'P-256', d: signer.privateKey, x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33).toString('base64url') },
    format: 'jwk',
  });
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const signed = `${part({ typ: 'JWT', alg: 'ES256' })}.${part(claims)}`;
  return `${signed}.${sign('sha256', Buffer.from(signed), { key, dsaEncoding: 'ieee-p1363' }).toString('base64url')}`;
}

/** POSTs web-push's request for `message`, with another Authorization (when given) or a changed body; resolves to the status. */
function post(subscription: TestSubscription, authorization?: string, change?: (body: Buffer) => void): Promise<number> {
  const details = webPush.generateRequestDetails(subscription, encodePayload(message.payload), { vapidDetails: vapid, TTL: 60, contentEncoding: 'aes128gcm' });
  const body = Buffer.from(details.body!);
  change?.(body);
  const headers: Record<string, string | number> = { ...details.headers };
  if (authorization !== undefined) headers.Authorization = authorization;
  if (authorization === '') delete headers.Authorization;
  return new Promise((resolve, reject) => {
    const req = request(details.endpoint, { method: 'POST', headers, agent: service.agent }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** A port of 127.0.0.1 on which nothing listens (just freed). */
function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
