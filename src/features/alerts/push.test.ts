import { describe, expect, it } from 'vitest';
import { base64UrlToBytes, pushSupport, quietProblem, webhookUrlOk } from './push.ts';

const android = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Mobile Safari/537.36';
const iphone = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.4 Mobile/15E148 Safari/604.1';

/** A window as pushSupport reads it: the user agent, the display mode, and which push features exist. */
function win(ua: string, o: { standalone?: boolean; push?: boolean; worker?: boolean; permission?: NotificationPermission } = {}) {
  const navigator: Record<string, unknown> = { userAgent: ua, maxTouchPoints: /iPhone/.test(ua) ? 5 : 0 };
  if (o.worker !== false) navigator.serviceWorker = {};
  const w: Record<string, unknown> = { navigator, matchMedia: () => ({ matches: o.standalone === true }) };
  if (o.push !== false) {
    w.PushManager = class {};
    w.Notification = { permission: o.permission ?? 'default' };
  }
  return w as unknown as Window;
}

describe('whether this device can receive pushes', () => {
  it('is ready in a browser with a service worker and PushManager, and says when the permission was refused', () => {
    expect(pushSupport(win(android))).toBe('ready');
    expect(pushSupport(win(android, { permission: 'granted' }))).toBe('ready');
    expect(pushSupport(win(android, { permission: 'denied' }))).toBe('denied');
  });

  it('sends an iOS Safari tab to Add to Home Screen, and works in the home-screen app', () => {
    expect(pushSupport(win(iphone, { push: false }))).toBe('ios-install');
    expect(pushSupport(win(iphone, { standalone: true }))).toBe('ready');
  });

  it("is not available in a wallet's in-app browser, even one with PushManager", () => {
    expect(pushSupport(win(`${android} MetaMaskMobile`))).toBe('wallet');
    expect(pushSupport(win(`${iphone} TokenPocket_iOS`, { push: false }))).toBe('wallet');
  });

  it('is unsupported without PushManager or without a service worker', () => {
    expect(pushSupport(win(android, { push: false }))).toBe('unsupported');
    expect(pushSupport(win(android, { worker: false }))).toBe('unsupported');
  });
});

describe('the server key for applicationServerKey', () => {
  it('decodes base64url (with or without padding) to its bytes', () => {
    expect([...base64UrlToBytes('AQID_-8')]).toEqual([1, 2, 3, 255, 239]);
    expect([...base64UrlToBytes('AQID_-8=')]).toEqual([1, 2, 3, 255, 239]);
    expect([...base64UrlToBytes('')]).toEqual([]);
  });

  it('gives the 65 bytes of an uncompressed P-256 key (starting 0x04) from its 87 characters', () => {
    const key = `BA${'A'.repeat(85)}`;
    const bytes = base64UrlToBytes(key);
    expect(bytes.length).toBe(65);
    expect(bytes[0]).toBe(4);
  });

  it('refuses text that is not base64url', () => {
    expect(() => base64UrlToBytes('ab+c')).toThrow();
    expect(() => base64UrlToBytes('abcde')).toThrow(); // a length no encoding gives
  });
});

describe('quiet hours', () => {
  it('take two different 24-hour times, across midnight too', () => {
    expect(quietProblem('22:00', '08:00')).toBeNull();
    expect(quietProblem('00:00', '23:59')).toBeNull();
    expect(quietProblem('22:00', '22:00')).toBe('same');
    for (const [from, to] of [
      ['24:00', '08:00'],
      ['7:00', '08:00'],
      ['22:60', '08:00'],
      ['', '08:00'],
      ['22:00', '08:00:00'],
    ] as const)
      expect(quietProblem(from, to), `${from}-${to}`).toBe('format');
  });
});

describe('a webhook URL', () => {
  it('is https with a host; the server checks where it points', () => {
    expect(webhookUrlOk('https://hooks.example.com/quantbot')).toBe(true);
    expect(webhookUrlOk('  https://hooks.example.com/x ')).toBe(true);
    expect(webhookUrlOk('http://hooks.example.com/x')).toBe(false);
    expect(webhookUrlOk('hooks.example.com')).toBe(false);
    expect(webhookUrlOk('')).toBe(false);
  });
});
