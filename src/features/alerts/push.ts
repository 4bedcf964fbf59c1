/**
 * This device's Web Push subscription: whether this browser can have one, and making or ending it.
 * The permission is asked only from a tap (browsers refuse or quietly block a prompt no gesture asked
 * for, and a refused prompt cannot be asked again), never when the screen opens.
 */
import { isIos, isStandalone, isWalletBrowser } from '../../lib/platform.ts';

/**
 * What this browser allows: `wallet` (a wallet's in-app browser), `ios-install` (an iOS Safari tab: Web
 * Push works only in the app opened from the home screen), `unsupported` (no service worker or no
 * PushManager), `denied` (the trader refused the permission: only the browser's settings give it back),
 * or `ready`.
 */
export type PushSupport = 'wallet' | 'ios-install' | 'unsupported' | 'denied' | 'ready';

/** Which of the PushSupport cases this browser is in. */
export function pushSupport(win: Window = window): PushSupport {
  if (isWalletBrowser(win.navigator.userAgent)) return 'wallet';
  // Before the feature checks: an iOS tab lacks PushManager too, and the remedy is installing, not another browser.
  if (isIos(win) && !isStandalone(win)) return 'ios-install';
  if (!('serviceWorker' in win.navigator) || !('PushManager' in win) || !('Notification' in win)) return 'unsupported';
  if ((win as Window & typeof globalThis).Notification.permission === 'denied') return 'denied';
  return 'ready';
}

/** The bytes of a base64url string (the VAPID public key, as the server gives it) for `applicationServerKey`. */
export function base64UrlToBytes(text: string): Uint8Array<ArrayBuffer> {
  const clean = text.trim().replace(/=+$/, '');
  if (!/^[A-Za-z0-9_-]*$/.test(clean) || clean.length % 4 === 1) throw new Error(`not base64url: ${text}`);
  const base64 = clean.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (clean.length % 4)) % 4);
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

const sameBytes = (a: ArrayBuffer | null, b: Uint8Array) => a !== null && a.byteLength === b.byteLength && new Uint8Array(a).every((x, i) => x === b[i]);

/** The service worker's registration, or null when there is none (the dev server runs without one). */
async function registration(): Promise<ServiceWorkerRegistration | null> {
  return (await navigator.serviceWorker.getRegistration()) ?? null;
}

/** This device's current subscription's endpoint, or null (none, or no service worker). */
export async function currentEndpoint(): Promise<string | null> {
  if (!('serviceWorker' in navigator) || !('PushManager' in window)) return null;
  const sub = await (await registration())?.pushManager.getSubscription();
  return sub?.endpoint ?? null;
}

/** Why turning pushes on stopped before a subscription was made. */
export class PushRefused extends Error {
  readonly reason: 'denied' | 'dismissed' | 'no-worker';
  constructor(reason: 'denied' | 'dismissed' | 'no-worker') {
    super(reason);
    this.name = 'PushRefused';
    this.reason = reason;
  }
}

/**
 * Asks the permission (call it from a tap), then subscribes with the server's key (asked for only
 * then, when it was not already at hand): an existing
 * subscription made with another key (the server's key changed) is ended first, as subscribe() refuses
 * to replace it. Answers the subscription as the server takes it.
 */
export async function subscribeDevice(publicKey: () => Promise<string>): Promise<PushSubscriptionJSON> {
  // First, before any await: a browser honours the prompt only while the tap's activation lasts (Safari's is short).
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') throw new PushRefused(permission === 'denied' ? 'denied' : 'dismissed');
  const reg = await registration();
  if (!reg) throw new PushRefused('no-worker');
  const key = base64UrlToBytes(await publicKey());
  const existing = await reg.pushManager.getSubscription();
  if (existing && !sameBytes(existing.options.applicationServerKey, key)) await existing.unsubscribe();
  const sub = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
  return sub.toJSON();
}

/** Ends this device's subscription in the browser; answers its endpoint (null when there was none). */
export async function unsubscribeDevice(): Promise<string | null> {
  const sub = await (await registration())?.pushManager.getSubscription();
  if (!sub) return null;
  await sub.unsubscribe();
  return sub.endpoint;
}

const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;

/** What is wrong with quiet hours from `from` to `to` (24-hour HH:MM; across midnight when to < from), or null. */
export function quietProblem(from: string, to: string): 'format' | 'same' | null {
  if (!HHMM.test(from) || !HHMM.test(to)) return 'format';
  if (from === to) return 'same';
  return null;
}

/** The zone quiet hours are counted in: this device's. */
export function deviceZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** Whether a webhook URL is one the screen sends to the server (https, a host); the server checks the rest (no private addresses). */
export function webhookUrlOk(url: string): boolean {
  try {
    const u = new URL(url.trim());
    return u.protocol === 'https:' && u.hostname !== '';
  } catch {
    return false;
  }
}
