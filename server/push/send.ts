import { createHash } from 'node:crypto';
import type { Agent } from 'node:https';
import webPush from 'web-push';
import { type DeclarativePush, PushSetupError, encodePayload } from './payload.ts';
import { checkVapid, type Vapid } from './vapid.ts';

/**
 * One Web Push message to one subscription (RFC 8030, encrypted per RFC 8291, signed per RFC 8292),
 * through the web-push library. The push service's answer comes back as an outcome the caller acts on:
 * delete the subscription, log, retry later. Only a message or a configuration that could never be
 * sent (a bug, not an answer) throws, as a PushSetupError, before anything goes on the wire.
 */

/** A browser's PushSubscription as its toJSON() gives it. */
export interface PushSubscription {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

export type Urgency = 'very-low' | 'low' | 'normal' | 'high';

export interface PushMessage {
  payload: DeclarativePush;
  /** How long the push service keeps the message for an offline device; 0 = deliver now or never. */
  ttlSeconds: number;
  urgency: Urgency;
  /** A later message with the same topic replaces this one while it waits at the push service (topicOf). */
  topic?: string;
}

export type PushOutcome =
  | { outcome: 'sent' }
  /** The subscription is no more (404, 410): delete it. */
  | { outcome: 'gone' }
  /** The push service found the message too large (413): a bug to log, retrying cannot help. */
  | { outcome: 'too-big' }
  /** The push service is busy or failing (429, 5xx): try again after afterMs. */
  | { outcome: 'retry'; afterMs: number }
  /** Anything else: no answer (network, timeout) or another 4xx (e.g. 401/403: our VAPID keys). */
  | { outcome: 'failed'; status?: number; reason: string };

export interface SendOptions {
  /** Socket inactivity allowed before the request is dropped; DEFAULT_TIMEOUT_MS when absent. */
  timeoutMs?: number;
  /** The HTTPS agent (web-push uses only an https.Agent; a test passes one that trusts its own push service). */
  agent?: Agent;
}

/** Long enough for a slow push service, short enough that one dead host cannot hold a sender. */
export const DEFAULT_TIMEOUT_MS = 10_000;
/** The wait after a 429 or 5xx that names none. */
export const DEFAULT_RETRY_MS = 60_000;
/** The longest wait we accept from Retry-After: a message is about a bot's state, and an hour later it is stale. */
export const MAX_RETRY_MS = 60 * 60_000;

const URGENCIES: readonly Urgency[] = ['very-low', 'low', 'normal', 'high'];
const TOPIC = /^[A-Za-z0-9_-]{1,32}$/;

/** Sends one message; resolves to what the push service answered, never rejects for that answer. */
export async function sendPush(subscription: PushSubscription, message: PushMessage, vapid: Vapid, options: SendOptions = {}): Promise<PushOutcome> {
  checkVapid(vapid);
  checkMessage(message);
  const body = encodePayload(message.payload);
  if (!isHttps(subscription.endpoint)) return { outcome: 'failed', reason: `The subscription's endpoint is not an https URL: ${subscription.endpoint}` };
  try {
    await webPush.sendNotification(subscription, body, {
      vapidDetails: vapid,
      TTL: message.ttlSeconds,
      urgency: message.urgency,
      contentEncoding: 'aes128gcm',
      timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      ...(message.topic === undefined ? {} : { topic: message.topic }),
      ...(options.agent === undefined ? {} : { agent: options.agent }),
    });
    return { outcome: 'sent' };
  } catch (error) {
    return outcomeOf(error, Date.now());
  }
}

/**
 * A valid Topic header for a kind of message and its subject ("fill", a bot id): the same pair gives the
 * same topic, so a newer message replaces an undelivered older one. It is a hash because the push service
 * reads the Topic header in clear: it must not learn the ids, and the alphabet and 32 characters
 * (RFC 8030 §5.4) fit any id.
 */
export function topicOf(kind: string, key: string): string {
  return createHash('sha256').update(kind).update('\0').update(key).digest('base64url').slice(0, 32);
}

/** True for a Topic header push services accept: 1 to 32 characters of the base64url alphabet. */
export function isValidTopic(topic: string): boolean {
  return TOPIC.test(topic);
}

/**
 * The wait a Retry-After header asks for, as delay-seconds or an HTTP-date (RFC 9110 §10.2.3), within
 * 0..MAX_RETRY_MS; DEFAULT_RETRY_MS when it is absent or unreadable.
 */
export function retryAfterMs(value: string | undefined, now: number): number {
  const text = value?.trim();
  let ms = DEFAULT_RETRY_MS;
  if (text && /^\d+$/.test(text)) ms = Number(text) * 1000;
  else if (text) {
    const at = Date.parse(text);
    if (!Number.isNaN(at)) ms = at - now;
  }
  return Math.min(Math.max(ms, 0), MAX_RETRY_MS);
}

function checkMessage(message: PushMessage): void {
  if (!Number.isSafeInteger(message.ttlSeconds) || message.ttlSeconds < 0) throw new PushSetupError(`TTL must be a whole number of seconds ≥ 0, not ${message.ttlSeconds}.`);
  if (!URGENCIES.includes(message.urgency)) throw new PushSetupError(`Urgency must be one of ${URGENCIES.join(', ')}, not "${message.urgency}".`);
  if (message.topic !== undefined && !isValidTopic(message.topic)) {
    throw new PushSetupError(`A topic is 1 to 32 characters of A-Z a-z 0-9 - _ (topicOf makes one), not "${message.topic}".`);
  }
}

function isHttps(endpoint: string): boolean {
  try {
    return new URL(endpoint).protocol === 'https:';
  } catch {
    return false;
  }
}

function outcomeOf(error: unknown, now: number): PushOutcome {
  if (error instanceof webPush.WebPushError) {
    const status = error.statusCode;
    if (status === 404 || status === 410) return { outcome: 'gone' };
    if (status === 413) return { outcome: 'too-big' };
    if (status === 429 || status >= 500) return { outcome: 'retry', afterMs: retryAfterMs(headerOf(error.headers, 'retry-after'), now) };
    const said = typeof error.body === 'string' ? error.body.trim().slice(0, 200) : '';
    return { outcome: 'failed', status, reason: said || `HTTP ${status}` };
  }
  if (error instanceof Error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { outcome: 'failed', reason: code ? `${code}: ${error.message}` : error.message };
  }
  return { outcome: 'failed', reason: String(error) };
}

function headerOf(headers: Record<string, string | string[] | undefined> | undefined, name: string): string | undefined {
  const value = headers?.[name];
  return Array.isArray(value) ? value[0] : value;
}
