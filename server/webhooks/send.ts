import { createHmac, timingSafeEqual } from 'node:crypto';
import { lookup as systemLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { checkWebhookUrl, portOf, type RefusedReason, type WebhookPolicy } from './check-url.ts';
import { isPublicAddress } from './safe-address.ts';

/**
 * Sends one notification to a trader's webhook URL. The URL is the trader's to choose, so every hop is
 * checked as the first: the URL, then every address its name resolves to, and the connection goes to
 * exactly those addresses (a second resolution could answer differently: DNS rebinding). Redirects are
 * followed by hand for the same reason. The outcome tells the caller's queue what to do next; the
 * secret only ever leaves as the HMAC.
 */

export interface WebhookTarget {
  url: string;
  secret: string;
}

/** The notification as the caller built it (the push payload); `id` names the event for the receiver's dedupe. */
export interface WebhookPayload {
  readonly id: string;
  readonly [key: string]: unknown;
}

export interface ResolvedAddress {
  address: string;
  family: number;
}

export interface SendOptions extends WebhookPolicy {
  /** How many attempts at this notification failed before this one (0 the first time): picks the back-off step. */
  attempt?: number;
  /** The whole attempt, from resolving the name to the last redirect's answer. */
  timeoutMs?: number;
  /** Resolves a name to all its addresses; the system resolver by default, a fixed map in tests. */
  lookup?: (hostname: string) => Promise<readonly ResolvedAddress[]>;
  /** Milliseconds since the epoch, for the signature's timestamp and a Retry-After date. */
  now?: () => number;
  /** In [0, 1), for the back-off's jitter. */
  random?: () => number;
}

export type WebhookOutcome =
  | { outcome: 'delivered'; status: number }
  /** `reason`: 'timeout', 'dns:<code>', 'network:<code>' or 'status:<code>'. */
  | { outcome: 'retry'; afterMs: number; reason: string }
  | { outcome: 'refused'; reason: RefusedReason }
  | { outcome: 'rejected'; status: number };

/** Waits after the 1st, 2nd, ... failed attempt; later ones repeat the last, and the queue decides when to give up. */
export const BACKOFF_MS: readonly number[] = [30_000, 120_000, 600_000, 3_600_000, 21_600_000];
/** A receiver's Retry-After is honoured up to a day, so that it cannot park a notification for ever. */
const MAX_RETRY_AFTER_MS = 86_400_000;
const MAX_REDIRECTS = 3;
/** Enough for any acknowledgement; a receiver cannot make the server read a large answer. */
const MAX_ANSWER_BYTES = 64 * 1024;
const DEFAULT_TIMEOUT_MS = 5_000;
const EVENT_ID = /^[\x21-\x7e]{1,200}$/;

/** The wait before the next attempt after `attempt` failed ones, ±20 % so that many receivers coming back at once are not hit together. */
export function backoffMs(attempt: number, random: () => number = Math.random): number {
  const base = BACKOFF_MS[Math.min(Math.max(0, Math.floor(attempt)), BACKOFF_MS.length - 1)]!;
  return Math.round(base * (0.8 + 0.4 * random()));
}

/** The signature header for `body` at unix time `tSec`: `t=<seconds>,v1=<hex HMAC-SHA256 of "t.body">`. */
export function signWebhook(secret: string, body: string, tSec: number): string {
  return `t=${tSec},v1=${createHmac('sha256', secret).update(`${tSec}.${body}`).digest('hex')}`;
}

/**
 * A receiver's check of X-Quantbot-Signature against the raw body: true when a v1 signature matches and
 * its timestamp is within `toleranceSec` of `nowSec` (unix seconds), so that a captured request cannot be
 * replayed later. Several v1 values are accepted, for a secret being rotated.
 */
export function verifyWebhookSignature(secret: string, header: string | undefined, body: string | Buffer, nowSec: number, toleranceSec = 300): boolean {
  if (!header) return false;
  let t: number | undefined;
  const given: string[] = [];
  for (const part of header.split(',')) {
    const [key, value] = part.trim().split('=', 2) as [string, string | undefined];
    if (key === 't' && value && /^\d{1,12}$/.test(value)) t = Number(value);
    else if (key === 'v1' && value && /^[0-9a-f]{64}$/.test(value)) given.push(value);
  }
  if (t === undefined || Math.abs(nowSec - t) > toleranceSec) return false;
  const expected = createHmac('sha256', secret).update(`${t}.`).update(body).digest();
  // Every candidate is compared, matching or not, so that the time taken says nothing about which one was close.
  return given.map((v) => timingSafeEqual(Buffer.from(v, 'hex'), expected)).includes(true);
}

/** Posts `payload` to `target.url`, signed with `target.secret`, and classifies what happened. */
export async function sendWebhook(target: WebhookTarget, payload: WebhookPayload, options: SendOptions = {}): Promise<WebhookOutcome> {
  if (!EVENT_ID.test(payload.id)) throw new TypeError('a webhook payload needs an id of visible ASCII characters');
  const now = options.now ?? Date.now;
  const body = JSON.stringify(payload);
  const headers = {
    'Content-Type': 'application/json',
    'Content-Length': String(Buffer.byteLength(body)),
    'User-Agent': 'quantbot-webhook/1',
    'X-Quantbot-Event-Id': payload.id,
    'X-Quantbot-Signature': signWebhook(target.secret, body, Math.floor(now() / 1000)),
  };
  const retry = (reason: string, retryAfterMs = 0): WebhookOutcome => ({
    outcome: 'retry',
    afterMs: Math.max(backoffMs(options.attempt ?? 0, options.random), Math.min(retryAfterMs, MAX_RETRY_AFTER_MS)),
    reason,
  });
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  try {
    let raw = target.url;
    for (let hop = 0; ; hop++) {
      const checked = checkWebhookUrl(raw, options);
      if (!checked.ok) return { outcome: 'refused', reason: checked.reason };
      const host = checked.url.hostname.replace(/^\[(.*)\]$/, '$1');
      let addresses: readonly ResolvedAddress[];
      if (isIP(host)) addresses = [{ address: host, family: isIP(host) }];
      else {
        try {
          addresses = await untilAborted((options.lookup ?? lookupAll)(host), deadline.signal);
        } catch (e) {
          if (deadline.signal.aborted) return retry('timeout');
          return retry(`dns:${errorCode(e)}`);
        }
        if (addresses.length === 0) return retry('dns:ENODATA');
        // One private answer is enough to refuse: the connection may pick any of them.
        if (!checked.trusted && !addresses.every((a) => isPublicAddress(a.address))) return { outcome: 'refused', reason: 'private' };
      }
      const answer = await post(checked.url, host, addresses, body, headers, deadline.signal);
      const { status } = answer;
      if (status >= 200 && status < 300) return { outcome: 'delivered', status };
      if (status === 408 || status === 429 || (status >= 500 && status < 600)) return retry(`status:${status}`, retryAfterMs(answer.retryAfter, now()));
      if (REDIRECTS.has(status) && answer.location) {
        if (hop === MAX_REDIRECTS) return { outcome: 'refused', reason: 'redirects' };
        try {
          raw = new URL(answer.location, checked.url).href;
        } catch {
          return { outcome: 'refused', reason: 'syntax' };
        }
        continue;
      }
      return { outcome: 'rejected', status };
    }
  } catch (e) {
    return deadline.signal.aborted ? retry('timeout') : retry(`network:${errorCode(e)}`);
  } finally {
    clearTimeout(timer);
  }
}

/** Followed with the same POST and body: the body is the delivery, a GET would deliver nothing. */
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

interface Answer {
  status: number;
  location: string | undefined;
  retryAfter: string | undefined;
}

async function lookupAll(host: string): Promise<readonly ResolvedAddress[]> {
  return systemLookup(host, { all: true, order: 'verbatim' });
}

/** One POST to `url`, connecting only to `addresses` (already checked), whatever the resolver would say now. */
function post(url: URL, host: string, addresses: readonly ResolvedAddress[], body: string, headers: Record<string, string>, signal: AbortSignal): Promise<Answer> {
  const pinned: LookupFunction = (_name, opts, callback) => {
    const [first] = addresses as [ResolvedAddress];
    if (opts.all) callback(null, [...addresses]);
    else callback(null, first.address, first.family);
  };
  return new Promise((resolve, reject) => {
    let answer: Answer | undefined;
    const request = (url.protocol === 'https:' ? https : http).request(
      {
        method: 'POST',
        protocol: url.protocol,
        // The name, not an address, so that TLS sends it as SNI and checks the certificate against it.
        hostname: host,
        port: portOf(url),
        path: `${url.pathname}${url.search}`,
        headers: { ...headers, Host: url.host },
        lookup: pinned,
        // A fresh connection each time: a pooled socket would skip this hop's checks (and no proxy from the environment).
        agent: false,
        signal,
      },
      (response) => {
        const got: Answer = { status: response.statusCode ?? 0, location: response.headers.location, retryAfter: response.headers['retry-after'] };
        answer = got;
        // The status is the answer; the body is read (up to a bound) only to end the exchange cleanly.
        const finish = () => {
          response.destroy();
          resolve(got);
        };
        let read = 0;
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read >= MAX_ANSWER_BYTES) finish();
        });
        response.on('end', finish);
        response.on('error', finish);
        response.on('close', finish);
      },
    );
    // Once the status has come, an error while reading the rest (the deadline, a reset) does not undo it.
    request.on('error', (e) => (answer ? resolve(answer) : reject(e)));
    request.end(body);
  });
}

/** Retry-After in milliseconds from `nowMs`, as seconds or an HTTP date; 0 when absent or unreadable. */
function retryAfterMs(value: string | undefined, nowMs: number): number {
  if (!value) return 0;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? 0 : Math.max(0, at - nowMs);
}

/** Settles with `promise`, or rejects once `signal` aborts (the work itself may go on, unobserved). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise((resolve, reject) => {
    const abort = () => reject(signal.reason);
    if (signal.aborted) abort();
    signal.addEventListener('abort', abort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}

/** An error's code (ECONNREFUSED, ENOTFOUND, ...), never its message, which may quote the request. */
function errorCode(e: unknown): string {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[A-Z0-9_]{1,40}$/.test(code) ? code : 'unknown';
}
