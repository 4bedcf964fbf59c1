import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { afterEach, describe, expect, inject, it } from 'vitest';
import type { CDPSession, Page, Worker } from 'playwright-core';
import { openPhone, underServiceWorker, type Phone } from './support/browser.ts';
import { callAs, loggedInPhone, PASSWORD } from './support/session.ts';

const baseURL = inject('baseURL');

/** The notifications the service worker has shown, as the page reads them. */
function shown(page: Page) {
  return page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    return (await registration.getNotifications()).map((n) => ({
      title: n.title,
      body: n.body,
      tag: n.tag,
      silent: n.silent,
      icon: n.icon,
      badge: (n as Notification & { badge?: string }).badge,
      data: n.data as unknown,
    }));
  });
}

/** The registration id of the app's service worker, from the DevTools protocol's registration events (the domain stays enabled on `cdp`, where pushes are sent). */
async function registrationId(cdp: CDPSession): Promise<string> {
  const found = new Promise<string>((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }: { registrations: { registrationId: string; scopeURL: string; isDeleted: boolean }[] }) => {
      const ours = registrations.find((r) => r.scopeURL === `${baseURL}/` && !r.isDeleted);
      if (ours) resolve(ours.registrationId);
    });
  });
  await cdp.send('ServiceWorker.enable');
  return found;
}

/**
 * The service worker's global scope, where the test replaces navigator.setAppBadge / clearAppBadge with
 * recorders: the page cannot reach the worker's navigator, and headless Chromium has no app icon whose
 * badge could be read. The worker stays alive meanwhile (a push is delivered within a second).
 */
async function recordBadges(phone: Phone): Promise<Worker> {
  const worker = phone.context.serviceWorkers()[0] ?? (await phone.context.waitForEvent('serviceworker'));
  await worker.evaluate(() => {
    const scope = self as unknown as { badges: (number | 'cleared')[] };
    scope.badges = [];
    const nav = navigator as unknown as { setAppBadge: (n: number) => Promise<void>; clearAppBadge: () => Promise<void> };
    nav.setAppBadge = async (n) => void scope.badges.push(n);
    nav.clearAppBadge = async () => void scope.badges.push('cleared');
  });
  return worker;
}

/** A Declarative Web Push message as server/push/payload.ts builds it. */
const declarative = (navigate: string, badge: number) => ({
  web_push: 8030,
  notification: { title: '成交：BTC/USDT', body: '买入 0.001 BTC @ 60000', navigate, lang: 'zh-CN', dir: 'auto', tag: 'fills-42', silent: false, app_badge: String(badge), mutable: true },
  app_badge: badge,
  mutable: true,
});

describe("the service worker's push handler", () => {
  let phone: Phone | undefined;
  afterEach(async () => {
    await phone?.close();
    phone = undefined;
  });

  it('shows a pushed declarative message with its text and link, sets the badge, and shows a generic notification for bad JSON', async () => {
    phone = await openPhone(baseURL);
    const { page, context } = phone;
    await context.grantPermissions(['notifications'], { origin: baseURL });
    await page.goto('/login');
    await underServiceWorker(page);
    const cdp = await context.newCDPSession(page);
    const id = await registrationId(cdp);
    const worker = await recordBadges(phone);
    const push = (data: string) => cdp.send('ServiceWorker.deliverPushMessage', { origin: baseURL, registrationId: id, data });

    // The first push may reach a worker still starting under a loaded machine's CPU and be dropped by the
    // protocol: it is sent again (same tag: one notification) until shown.
    for (let tries = 0; tries < 3 && (await shown(page)).length === 0; tries++) {
      await push(JSON.stringify(declarative(`${baseURL}/strategy/detail/42`, 3)));
      await expect
        .poll(async () => (await shown(page)).length, { timeout: 7000 })
        .toBe(1)
        .catch(() => undefined);
    }
    expect(await shown(page)).toEqual([
      {
        title: '成交：BTC/USDT',
        body: '买入 0.001 BTC @ 60000',
        tag: 'fills-42',
        silent: false,
        icon: `${baseURL}/icons/icon-192.png`,
        badge: `${baseURL}/icons/badge-96.png`,
        data: { navigate: `${baseURL}/strategy/detail/42` },
      },
    ]);
    const badgesSoFar = (await worker.evaluate(() => (self as unknown as { badges: unknown[] }).badges)) as unknown[];
    expect(new Set(badgesSoFar)).toEqual(new Set([3]));

    // Another origin's link is never kept: a tap would open the app's start.
    await push(JSON.stringify({ ...declarative('https://evil.example/phish', 0), notification: { ...declarative('', 0).notification, navigate: 'https://evil.example/phish', tag: 'other' } }));
    await expect.poll(async () => (await shown(page)).find((n) => n.tag === 'other')?.data).toEqual({ navigate: `${baseURL}/` });
    expect(await worker.evaluate(() => (self as unknown as { badges: unknown[] }).badges)).toEqual([...badgesSoFar, 'cleared']);

    await push('{not json');
    await expect.poll(async () => (await shown(page)).find((n) => n.title === 'QuantBot')).toMatchObject({ body: '打开应用查看', data: { navigate: `${baseURL}/` } });
  });
});

/** A subscription as a push service would give it: a real P-256 public key (87 base64url characters) and a 16-byte secret (22). */
function fakeSubscription() {
  const { publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const jwk = publicKey.export({ format: 'jwk' });
  const raw = Buffer.concat([Buffer.from([4]), Buffer.from(jwk.x!, 'base64url'), Buffer.from(jwk.y!, 'base64url')]);
  return { endpoint: 'https://push.example.test/abc', expirationTime: null, keys: { p256dh: raw.toString('base64url'), auth: randomBytes(16).toString('base64url') } };
}

/**
 * Chromium's own subscribe() goes to Google's push service, out of reach here: PushManager answers a
 * fake subscription instead (kept in sessionStorage across reloads), and requestPermission counts its
 * calls, so the test can tell that the permission is asked on the tap only.
 */
function stubPushManager(sub: ReturnType<typeof fakeSubscription>) {
  const fake = {
    endpoint: sub.endpoint,
    expirationTime: null,
    options: { applicationServerKey: null, userVisibleOnly: true },
    toJSON: () => sub,
    unsubscribe: async () => {
      sessionStorage.removeItem('fake-push');
      return true;
    },
  };
  PushManager.prototype.getSubscription = async () => (sessionStorage.getItem('fake-push') ? (fake as unknown as PushSubscription) : null);
  PushManager.prototype.subscribe = async (options?: PushSubscriptionOptionsInit) => {
    sessionStorage.setItem('fake-push', String((options?.applicationServerKey as Uint8Array | undefined)?.length ?? 0));
    return fake as unknown as PushSubscription;
  };
  const ask = Notification.requestPermission.bind(Notification);
  Notification.requestPermission = () => {
    sessionStorage.setItem('asked', String(Number(sessionStorage.getItem('asked') ?? 0) + 1));
    return ask();
  };
}

interface Settings {
  modes: Record<string, string>;
  quiet: { from: string; to: string; zone: string } | null;
  devices: number;
  thisDevice: boolean;
  webhook: { url: string } | null;
}

describe('the notifications screen', () => {
  let phone: Phone | undefined;
  afterEach(async () => {
    await phone?.close();
    phone = undefined;
  });

  it('turns pushes on from a tap, sets kinds and quiet hours, and a logout removes the device', async () => {
    const session = await loggedInPhone(baseURL);
    phone = session.phone;
    const { page, user } = session;
    const sub = fakeSubscription();
    await phone.context.addInitScript(stubPushManager, sub);
    const settings = async (endpoint = sub.endpoint) => (await callAs<Settings>(baseURL, user, 'GET', `/api/alert/settings?endpoint=${encodeURIComponent(endpoint)}`)).data;

    await page.goto('/setting');
    await page.getByRole('link', { name: '通知' }).click();
    await page.waitForURL('**/my/notifications');
    await underServiceWorker(page);
    const device = page.getByTestId('push-device');
    await expect.poll(() => device.getAttribute('data-state')).toBe('off');
    expect(await page.evaluate(() => sessionStorage.getItem('asked'))).toBeNull(); // nothing asked on opening
    // A test with no device and no webhook says so on the screen.
    await page.getByTestId('alert-test-send').click();
    await expect.poll(() => page.getByTestId('alert-test').getByRole('alert').innerText()).toContain('没有可发送的地方');

    await phone.context.grantPermissions(['notifications'], { origin: baseURL });
    await page.getByTestId('push-switch').click();
    await expect.poll(() => device.getAttribute('data-state')).toBe('on');
    expect(await page.evaluate(() => [sessionStorage.getItem('asked'), sessionStorage.getItem('fake-push')])).toEqual(['1', '65']); // asked once; the server's key as 65 bytes
    expect(await page.getByTestId('push-status').innerText()).toBe('已开启');
    expect(await settings()).toMatchObject({ devices: 1, thisDevice: true });

    // A kind to silent and back, each saved at once.
    const cycles = page.getByTestId('kind-cycles');
    await cycles.getByText('静音').click();
    await expect.poll(async () => (await settings()).modes.cycles).toBe('silent');
    await cycles.getByText('开', { exact: true }).click();
    await expect.poll(async () => (await settings()).modes.cycles).toBe('on');
    // Security is on and cannot be changed.
    const security = page.getByTestId('kind-security');
    expect(await security.innerText()).toContain('安全提醒无法关闭');
    expect(await security.getByRole('radio').evaluateAll((radios) => radios.map((r) => [(r as HTMLInputElement).checked, (r as HTMLInputElement).disabled]))).toEqual([
      [true, true],
      [false, true],
      [false, true],
    ]);

    // Quiet hours in this device's zone.
    const zone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
    await page.getByTestId('quiet-switch').click();
    await page.getByTestId('quiet-from').fill('23:30');
    await page.getByTestId('quiet-to').fill('07:00');
    await page.getByTestId('quiet-save').click();
    await expect.poll(async () => (await settings()).quiet).toEqual({ from: '23:30', to: '07:00', zone });
    expect(await page.evaluate(() => document.scrollingElement!.scrollWidth)).toBeLessThanOrEqual(390);

    // The webhook: a private address is refused under the field; a public one answers its secret once, in a dialog.
    const webhook = page.getByTestId('webhook');
    await page.getByTestId('webhook-url').fill('https://127.0.0.1/hook');
    await page.getByTestId('webhook-save').click();
    await expect.poll(() => webhook.getByRole('alert').innerText()).toContain('网址不能指向内网或本机地址');
    await page.getByTestId('webhook-url').fill('https://hooks.example.com/quantbot');
    await page.getByTestId('webhook-save').click();
    const secret = page.getByTestId('webhook-secret-dialog');
    await secret.waitFor();
    expect(await secret.innerText()).toContain('保存此密钥，之后不再显示');
    expect(await secret.innerText()).toContain('X-Quantbot-Signature: t=<unix>,v1=<hex>');
    expect(await page.getByTestId('webhook-secret').innerText()).toMatch(/^whsec_[\w-]{32}$/);
    await page.getByTestId('webhook-secret-done').click();
    await expect.poll(async () => (await settings()).webhook).toEqual({ url: 'https://hooks.example.com/quantbot' });
    await page.getByTestId('alert-test-send').click();
    await page.getByText('已发送到 1 台设备和 Webhook').waitFor();
    await page.getByTestId('webhook-delete').click();
    await page.getByRole('dialog').getByRole('button', { name: '删除' }).click();
    await expect.poll(async () => (await settings()).webhook).toBeNull();

    // A logout ends this device's subscription on the server: the next login finds none.
    expect((await callAs(baseURL, user, 'POST', '/api/login/logout', {})).code).toBe(1);
    const again = await fetch(`${baseURL}/api/login/account`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ terminal: 1, account: user.account, password: PASSWORD }),
    });
    const token = ((await again.json()) as { data: { token: string } }).data.token;
    const after = (await callAs<Settings>(baseURL, { token }, 'GET', `/api/alert/settings?endpoint=${encodeURIComponent(sub.endpoint)}`)).data;
    expect(after).toMatchObject({ devices: 0, thisDevice: false });
  });

  it('says where the push is not available: an iOS Safari tab gets the Add to Home Screen steps, a wallet browser a plain no', async () => {
    for (const [userAgent, testId, words] of [
      ['Mozilla/5.0 (iPhone; CPU iPhone OS 18_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.4 Mobile/15E148 Safari/604.1', 'push-ios', '添加到主屏幕'],
      ['Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Mobile Safari/537.36 MetaMaskMobile', 'push-wallet', '这里无法开启通知'],
    ] as const) {
      const session = await loggedInPhone(baseURL);
      phone = session.phone;
      const { page } = session;
      await phone.context.addInitScript((ua) => Object.defineProperty(navigator, 'userAgent', { get: () => ua }), userAgent);
      await page.goto('/my/notifications');
      const box = page.getByTestId(testId);
      await box.waitFor();
      expect(await box.innerText()).toContain(words);
      expect(await page.getByTestId('push-switch').count()).toBe(0);
      await phone.close();
      phone = undefined;
    }
  });
});
