import { execFile } from 'node:child_process';
import { createDecipheriv, createECDH, createPublicKey, type ECDH, hkdfSync, randomBytes, randomUUID, verify } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { Agent, createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

/**
 * A push service on 127.0.0.1 for tests: it checks a request as a real one would (VAPID, RFC 8292; the
 * RFC 8030 headers; the size) and decrypts the body (RFC 8291) with its own code on node:crypto, not with
 * the library the sender encrypts with, so a test compares the sender against the RFCs rather than
 * against itself.
 *
 * It speaks HTTPS because web-push sends with https.request whatever the endpoint's scheme. Its
 * certificate is self-signed, made by openssl at the first start (node:crypto cannot write an X.509
 * certificate); `agent` trusts exactly that certificate, for the sender's `agent` option.
 */

export interface TestSubscription {
  /** The part of the endpoint after /push/, for `answer` and `received`. */
  id: string;
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

/** A request as the push service saw it. */
export interface ReceivedPush {
  subscriptionId: string;
  headers: IncomingHttpHeaders;
  /** The status the service answered. */
  status: number;
  /** Why the service refused the request (status 400, 401, 404, 413), when it did. */
  refused?: string;
  /** The VAPID token's claims and key, once verified. */
  vapid?: { aud: string; exp: number; sub: string; publicKey: string };
  /** The decrypted body. */
  text?: string;
}

export interface Answer {
  /** The Retry-After header, as seconds or an HTTP-date. */
  retryAfter?: string;
  body?: string;
}

export interface PushService {
  /** https://127.0.0.1:<port>: the `aud` every token must name. */
  origin: string;
  /** An HTTPS agent that trusts this service's certificate. */
  agent: Agent;
  /** A new subscription, as a browser would get it from pushManager.subscribe(). */
  subscribe: () => TestSubscription;
  /** From now on, answer valid requests to this subscription with `status` (201 restores the default). */
  answer: (subscriptionId: string, status: number, options?: Answer) => void;
  /** From now on, read requests to this subscription and never answer them (until close). */
  stall: (subscriptionId: string) => void;
  /** Every request so far, in order. */
  received: (subscriptionId?: string) => ReceivedPush[];
  close: () => Promise<void>;
}

/** A push service accepts a token that expires within a day (RFC 8292 §2). */
const MAX_TOKEN_SECONDS = 24 * 60 * 60;
/** The largest encrypted body a push service must accept (RFC 8030 §7.2). */
const MAX_BODY_BYTES = 4096;
const URGENCIES = ['very-low', 'low', 'normal', 'high'];

/** Starts a push service on a free port of 127.0.0.1. */
export async function startPushService(): Promise<PushService> {
  const { key, cert } = await certificate();
  const subscriptions = new Map<string, { ecdh: ECDH; auth: Buffer }>();
  const answers = new Map<string, { status: number } & Answer>();
  const stalled = new Set<string>();
  const log: ReceivedPush[] = [];
  let origin = '';
  let delivered = 0;

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const body = await readBody(req);
    const subscriptionId = /^\/push\/([^/?]+)$/.exec(req.url ?? '')?.[1] ?? '';
    if (stalled.has(subscriptionId)) return;
    const entry: ReceivedPush = { subscriptionId, headers: req.headers, status: 0 };
    log.push(entry);
    const refuse = (status: number, reason: string) => {
      entry.status = status;
      entry.refused = reason;
      res.writeHead(status, { 'content-type': 'text/plain' }).end(reason);
    };
    if (req.method !== 'POST') return refuse(405, 'push messages are POSTed');
    const subscription = subscriptions.get(subscriptionId);
    if (!subscription) return refuse(404, 'no such subscription');
    const vapid = checkToken(req.headers.authorization, origin, Date.now());
    if (typeof vapid === 'string') return refuse(401, vapid);
    entry.vapid = vapid;
    const problem = headerProblem(req.headers);
    if (problem) return refuse(400, problem);
    if (body.length > MAX_BODY_BYTES) return refuse(413, `the body is ${body.length} bytes, over ${MAX_BODY_BYTES}`);
    try {
      entry.text = decrypt(body, subscription.ecdh, subscription.auth);
    } catch (error) {
      return refuse(400, `the body does not decrypt: ${(error as Error).message}`);
    }
    const answer = answers.get(subscriptionId);
    if (answer && answer.status !== 201) {
      entry.status = answer.status;
      res.writeHead(answer.status, answer.retryAfter === undefined ? {} : { 'retry-after': answer.retryAfter }).end(answer.body ?? '');
      return;
    }
    entry.status = 201;
    delivered += 1;
    res.writeHead(201, { location: `${origin}/message/${delivered}` }).end();
  };

  const server = createServer({ key, cert }, (req, res) => {
    handle(req, res).catch((error: unknown) => res.writeHead(500).end(String(error)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const agent = new Agent({ ca: cert });

  return {
    origin,
    agent,
    subscribe: () => {
      const id = randomUUID();
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const auth = randomBytes(16);
      subscriptions.set(id, { ecdh, auth });
      return { id, endpoint: `${origin}/push/${id}`, keys: { p256dh: ecdh.getPublicKey('base64url', 'uncompressed'), auth: auth.toString('base64url') } };
    },
    answer: (subscriptionId, status, options = {}) => {
      answers.set(subscriptionId, { status, ...options });
    },
    stall: (subscriptionId) => {
      stalled.add(subscriptionId);
    },
    received: (subscriptionId) => log.filter((r) => subscriptionId === undefined || r.subscriptionId === subscriptionId),
    close: async () => {
      agent.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
}

/**
 * Checks `Authorization: vapid t=<JWT>, k=<public key>` (RFC 8292 §3): an ES256 signature by k, `aud` the
 * push service's origin, `exp` in the future and at most 24 h away, `sub` a mailto: contact. Returns the
 * claims, or the reason for refusing.
 */
function checkToken(authorization: string | undefined, origin: string, now: number): NonNullable<ReceivedPush['vapid']> | string {
  const match = /^vapid t=([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+),\s*k=([A-Za-z0-9_-]+)$/.exec(authorization ?? '');
  if (!match) return 'no "vapid t=…, k=…" authorization';
  const [token, k] = [match[1]!, match[2]!];
  const [head, claims, signature] = token.split('.') as [string, string, string];
  const point = Buffer.from(k, 'base64url');
  if (point.length !== 65 || point[0] !== 0x04) return 'k is not an uncompressed P-256 point';
  let header: { alg?: unknown };
  let payload: { aud?: unknown; exp?: unknown; sub?: unknown };
  try {
    header = JSON.parse(Buffer.from(head, 'base64url').toString('utf8'));
    payload = JSON.parse(Buffer.from(claims, 'base64url').toString('utf8'));
  } catch {
    return 'the token is not JSON';
  }
  if (header.alg !== 'ES256') return `the token is signed with ${String(header.alg)}, not ES256`;
  const publicKey = createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33).toString('base64url') }, format: 'jwk' });
  // JWS carries ES256 as r||s (RFC 7518 §3.4), not the DER that node:crypto assumes by default.
  const signed = verify('sha256', Buffer.from(`${head}.${claims}`), { key: publicKey, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'base64url'));
  if (!signed) return 'the token is not signed by k';
  const { aud, exp, sub } = payload;
  if (aud !== origin) return `the token's aud is ${String(aud)}, not ${origin}`;
  const seconds = Math.floor(now / 1000);
  if (typeof exp !== 'number' || !Number.isInteger(exp)) return 'the token has no exp';
  if (exp <= seconds) return 'the token has expired';
  if (exp > seconds + MAX_TOKEN_SECONDS) return 'the token expires more than 24 hours from now';
  if (typeof sub !== 'string' || !/^mailto:[^@\s]+@[^@\s]+$/.test(sub)) return `the token's sub is ${String(sub)}, not a mailto: contact`;
  return { aud, exp, sub, publicKey: k };
}

/** What is wrong with the RFC 8030 and RFC 8291 headers of a push request, if anything. */
function headerProblem(headers: IncomingHttpHeaders): string | undefined {
  if (headers['content-encoding'] !== 'aes128gcm') return `Content-Encoding is ${headers['content-encoding']}, not aes128gcm`;
  const ttl = headers.ttl;
  if (typeof ttl !== 'string' || !/^\d+$/.test(ttl)) return `TTL is ${ttl}, not a number of seconds`;
  const urgency = headers.urgency;
  if (urgency !== undefined && !URGENCIES.includes(urgency as string)) return `Urgency is ${urgency}`;
  const topic = headers.topic;
  if (topic !== undefined && !/^[A-Za-z0-9_-]{1,32}$/.test(topic as string)) return `Topic ${topic} is not 1 to 32 base64url characters`;
  return undefined;
}

/**
 * Decrypts an aes128gcm body for a subscription's key pair and auth secret (RFC 8291 §3.4, RFC 8188 §2):
 * the header gives the salt, the record size and the sender's one-time public key; the message is one
 * record, its plaintext ended by the delimiter 2 and zero padding.
 */
function decrypt(body: Buffer, ecdh: ECDH, auth: Buffer): string {
  if (body.length < 21) throw new Error('shorter than the header');
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const idLength = body[20]!;
  if (idLength !== 65) throw new Error(`the key id is ${idLength} bytes, not the sender's 65-byte public key`);
  const senderKey = body.subarray(21, 86);
  const record = body.subarray(86);
  if (record.length > recordSize) throw new Error('more than one record');
  if (record.length < 17) throw new Error('the record is shorter than its tag');
  const info = (label: string) => Buffer.from(`Content-Encoding: ${label}\0`, 'latin1');
  const ikm = Buffer.from(hkdfSync('sha256', ecdh.computeSecret(senderKey), auth, Buffer.concat([Buffer.from('WebPush: info\0', 'latin1'), ecdh.getPublicKey(), senderKey]), 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, info('aes128gcm'), 16));
  // The nonce of record 0 is the derived nonce itself (the sequence number XORed in is 0).
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, info('nonce'), 12));
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(record.subarray(record.length - 16));
  const plain = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
  let end = plain.length - 1;
  while (end >= 0 && plain[end] === 0) end -= 1;
  if (plain[end] !== 2) throw new Error('the last record does not end with the delimiter 2');
  return plain.subarray(0, end).toString('utf8');
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

let made: Promise<{ key: string; cert: string }> | undefined;

/** A self-signed certificate for 127.0.0.1, made once per process. */
function certificate(): Promise<{ key: string; cert: string }> {
  made ??= (async () => {
    const dir = await mkdtemp(join(tmpdir(), 'push-service-'));
    try {
      const [keyFile, certFile] = [join(dir, 'key.pem'), join(dir, 'cert.pem')];
      await promisify(execFile)('openssl', [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
        '-keyout',
        keyFile,
        '-out',
        certFile,
      ]);
      return { key: await readFile(keyFile, 'utf8'), cert: await readFile(certFile, 'utf8') };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  })();
  return made;
}
