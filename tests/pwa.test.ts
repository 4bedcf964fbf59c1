import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openPhone, underServiceWorker, type Phone } from './support/browser.ts';
import { callAs, register, storeSession } from './support/session.ts';

const baseURL = inject('baseURL');

// biome-ignore lint/suspicious/noExplicitAny: as callAs: answers of every shape, typed at the call site where fields are read
const api = <T = any>(path: string, token: string, init: { method?: string; body?: string } = {}) =>
  callAs<T>(baseURL, { token }, init.method ?? 'GET', `/api${path}`, init.body ? JSON.parse(init.body) : undefined);

/** A new user with Paper bound and one stopped martin bot; logged in on `page` through storage. */
async function traderWithBot(page: Page): Promise<{ token: string; botId: string }> {
  const user = await register(baseURL);
  const { token } = user;
  expect((await api('/exchanges/bind', token, { method: 'POST', body: JSON.stringify({ exchangeId: 1, apiKey: 'paperKey1234', secretKey: 'paperSecret1234' }) })).code).toBe(1);
  const params = { investment: '1000', firstOrder: '20', multiplier: '2', maxPositions: 5, addTrigger: '2', takeProfit: '1.5', repeat: true };
  const bot = await api<{ id: string }>('/user/botCreate', token, { method: 'POST', body: JSON.stringify({ type: 'martin', exchangeId: 1, symbol: 'ETH/USDT', name: 'Offline 马丁', params }) });
  expect(bot.code).toBe(1);
  await storeSession(page, user);
  return { token, botId: bot.data.id };
}

const apiCaches = (page: Page) => page.evaluate(async () => (await caches.keys()).filter((k) => k.startsWith('api-')));

/**
 * Each test has its own phone (a fresh profile: no service worker yet, no storage) and sets up what it
 * needs: a trader with a bot, the service worker in control. Any one runs alone (`-t`) and in any order
 *.
 */
describe('the installable, offline-capable PWA', () => {
  let phone: Phone;
  let page: Page;

  beforeEach(async (test) => {
    // Chromium installs no app from an incognito-like context: the install check gets a profile of its own.
    phone = await openPhone(baseURL, { ownProfile: test.task.name.startsWith('is installable') });
    page = phone.page;
  });
  afterEach(async () => phone?.close());

  it('is installable: the manifest is found and Chromium reports no installability error', async () => {
    await page.goto('/login');
    await underServiceWorker(page);
    // Linked once the first screen is up and the network quiet (public/boot.js), not fetched beside its code.
    await page.locator('link[rel="manifest"]').waitFor({ state: 'attached' });
    const cdp = await phone.context.newCDPSession(page);
    const manifest = (await cdp.send('Page.getAppManifest')) as { url: string; errors: unknown[]; data?: string };
    expect(manifest.url).toBe(`${baseURL}/manifest.webmanifest`);
    expect(manifest.errors).toEqual([]);
    const parsed = JSON.parse(manifest.data!) as { name: string; display: string; icons: { sizes: string; purpose: string }[] };
    expect(parsed).toMatchObject({ name: 'QuantBot 量化交易机器人', display: 'standalone' });
    expect(parsed.icons.map((i) => `${i.sizes} ${i.purpose}`)).toEqual(['192x192 any', '512x512 any', '512x512 maskable']);
    const installability = (await cdp.send('Page.getInstallabilityErrors')) as { installabilityErrors: unknown[] };
    expect(installability.installabilityErrors).toEqual([]);
    // Chromium offers its install prompt; the app keeps it for the install entry of /setting.
    await expect.poll(() => page.evaluate(() => Boolean(window.__installPrompt))).toBe(true);
  });

  it('opens offline after the first visit: a reload and a deep link render from the service worker', async () => {
    await page.goto('/login');
    await underServiceWorker(page);
    await phone.context.setOffline(true);
    try {
      const reload = await page.reload();
      expect(reload?.fromServiceWorker()).toBe(true);
      await page.locator('input[name="account"]').waitFor();
      const deep = await page.goto('/register');
      expect(deep?.fromServiceWorker()).toBe(true);
      await page.locator('input[name="confirm"]').waitFor();
    } finally {
      await phone.context.setOffline(false);
    }
  });

  it('shows the cached bot list and detail offline with the time of the data, and refuses a write at once', async () => {
    const { token, botId } = await traderWithBot(page);
    await underServiceWorker(page);
    await page.goto('/strategy');
    await expect.poll(() => page.getByTestId('bot-card').count()).toBe(1);
    await page.goto(`/strategy/detail/${botId}`);
    await page.getByTestId('bot-summary').waitFor();
    await expect.poll(() => apiCaches(page)).toHaveLength(1); // this user's answers, kept per user

    await phone.context.setOffline(true);
    try {
      await page.goto('/strategy');
      await expect.poll(() => page.getByTestId('bot-card').count()).toBe(1);
      expect(await page.getByTestId('bot-card').innerText()).toContain('Offline 马丁');
      await expect.poll(() => page.getByTestId('offline-banner').innerText()).toMatch(/^离线 · 更新于 \d\d-\d\d \d\d:\d\d:\d\d$/);
      await page.goto(`/strategy/detail/${botId}`);
      await page.getByTestId('bot-summary').waitFor();
      await page.getByTestId('offline-banner').waitFor();
      const started = Date.now();
      await page.getByTestId('op-start').click();
      await expect.poll(() => page.getByTestId('op-failure').innerText()).toBe('网络连接失败，请检查网络');
      expect(Date.now() - started).toBeLessThan(3000);
    } finally {
      await phone.context.setOffline(false);
    }
    // Nothing was queued: back online, the bot is still stopped and its log has no start.
    await page.waitForTimeout(500);
    expect((await api(`/user/botInfo?id=${botId}`, token)).data.status).toBe('stopped');
    expect((await api<{ list: { kind: string }[] }>(`/user/botActions?id=${botId}`, token)).data.list.map((a) => a.kind)).toEqual(['create']);
  });

  it('serves the exchange list stale-while-revalidate within 5 minutes, and never older', async () => {
    const { token } = await traderWithBot(page);
    await underServiceWorker(page);
    const get = () =>
      page.evaluate(async (t) => {
        const r = await fetch('/api/market/exchanges', { headers: { authorization: `Bearer ${t}` } });
        return { cachedAt: r.headers.get('x-sw-cached-at'), code: ((await r.json()) as { code: number }).code };
      }, token);
    const keptAt = async () =>
      page.evaluate(async () => {
        for (const name of await caches.keys()) {
          const hit = await (await caches.open(name)).match('/api/market/exchanges');
          if (hit) return Number(hit.headers.get('x-sw-cached-at'));
        }
        return null;
      });
    await get();
    await expect.poll(keptAt).toBeGreaterThan(0); // kept behind the answer
    const first = await keptAt();
    const cached = await get(); // served from the cache...
    expect(cached).toEqual({ cachedAt: String(first), code: 1 });
    await expect.poll(keptAt).toBeGreaterThan(first!); // ...and refreshed behind it
    // An entry older than 5 minutes is not served: the answer comes from the network.
    await page.evaluate(async () => {
      for (const name of await caches.keys()) {
        const cache = await caches.open(name);
        const hit = await cache.match('/api/market/exchanges');
        if (!hit) continue;
        const headers = new Headers(hit.headers);
        headers.set('x-sw-cached-at', String(Date.now() - 5 * 60_000 - 1000));
        await cache.put('/api/market/exchanges', new Response(await hit.text(), { headers }));
      }
    });
    expect((await get()).cachedAt).toBeNull();
  });

  it('offers a new version once it is installed and waiting, and reloads into it when tapped', async () => {
    await traderWithBot(page);
    await underServiceWorker(page); // this version installed and in control
    // A second build with a changed shell: a new index.html (and its compressed copies, as a build writes
    // them: the server sends those to a browser that accepts them), and the worker's manifest carries its revision.
    const files = ['index.html', 'index.html.br', 'index.html.gz', 'sw.js', 'sw.js.br', 'sw.js.gz'].filter((f) => existsSync(`dist/${f}`));
    const original = new Map(files.map((f) => [f, readFileSync(`dist/${f}`)]));
    const deploy = (file: string, text: string) => {
      writeFileSync(`dist/${file}`, text);
      if (original.has(`${file}.br`)) writeFileSync(`dist/${file}.br`, brotliCompressSync(text));
      if (original.has(`${file}.gz`)) writeFileSync(`dist/${file}.gz`, gzipSync(text));
    };
    try {
      const html = original.get('index.html')!.toString().replace('</head>', '<meta name="build" content="second"></head>');
      const revision = createHash('md5').update(html).digest('hex');
      const oldSw = original.get('sw.js')!.toString();
      const sw = oldSw.replace(/("revision":")[0-9a-f]+(","url":"index\.html")/, `$1${revision}$2`);
      expect(sw).not.toBe(oldSw);
      deploy('index.html', html);
      deploy('sw.js', sw);
      await page.goto('/strategy'); // a navigation makes the browser look for a new worker
      const toast = page.locator('[data-kind="info"]', { hasText: '新版本已就绪，点此刷新' });
      await toast.waitFor({ timeout: 20_000 });
      expect(await page.locator('meta[name="build"]').count()).toBe(0); // still the old shell until the trader agrees
      await Promise.all([page.waitForEvent('load'), toast.click()]);
      await expect.poll(() => page.locator('meta[name="build"]').getAttribute('content')).toBe('second');
    } finally {
      for (const [f, bytes] of original) writeFileSync(`dist/${f}`, bytes);
    }
  });

  it('leaves nothing of the user behind after logout: no cached answers, no storage, nothing offline', async () => {
    await traderWithBot(page);
    await underServiceWorker(page);
    await page.goto('/strategy');
    await expect.poll(() => page.getByTestId('bot-card').count()).toBe(1);
    await expect.poll(() => apiCaches(page)).toHaveLength(1); // this user's answers, kept while logged in
    await page.goto('/my');
    await page.getByRole('button', { name: '退出登录' }).click();
    await page.getByRole('dialog').getByRole('button', { name: '退出' }).click();
    await page.waitForURL((u) => u.pathname === '/login');
    await expect.poll(() => apiCaches(page)).toEqual([]);
    const storage = await page.evaluate(() => ({ token: localStorage.getItem('token'), user: localStorage.getItem('user'), session: sessionStorage.length }));
    expect(storage).toEqual({ token: null, user: null, session: 0 });
    await phone.context.setOffline(true);
    try {
      await page.goto('/strategy');
      await page.waitForURL((u) => u.pathname === '/login');
      expect(await page.locator('body').innerText()).not.toContain('Offline 马丁');
    } finally {
      await phone.context.setOffline(false);
    }
  });
});

describe('the PWA where there is no service worker or no install prompt', () => {
  it('works without a service worker (some wallet browsers have none): login state, bot list and detail', async () => {
    const phone = await openPhone(baseURL, { serviceWorkers: 'block' });
    try {
      const { page } = phone;
      const { botId } = await traderWithBot(page);
      await page.goto('/strategy');
      await expect.poll(() => page.getByTestId('bot-card').count()).toBe(1);
      await page.goto(`/strategy/detail/${botId}`);
      await page.getByTestId('bot-summary').waitFor();
      expect(await page.evaluate(async () => ({ controller: navigator.serviceWorker?.controller ?? null, registrations: (await navigator.serviceWorker?.getRegistrations())?.length ?? 0 }))).toEqual({
        controller: null,
        registrations: 0,
      });
      expect(await page.getByTestId('offline-banner').count()).toBe(0);
    } finally {
      await phone.close();
    }
  });

  it('shows the add-to-home-screen steps for iOS Safari and for wallet browsers in /setting', async () => {
    const cases = [
      { ua: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1', way: 'ios', step: '分享' },
      { ua: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Mobile Safari/537.36 TokenPocket_Android', way: 'wallet', step: '在浏览器中打开' },
    ];
    for (const c of cases) {
      const phone = await openPhone(baseURL, { userAgent: c.ua });
      try {
        const { page } = phone;
        await traderWithBot(page);
        await page.goto('/setting');
        const row = page.getByTestId('install-app');
        await expect.poll(() => row.getAttribute('data-way')).toBe(c.way);
        await row.click();
        await expect.poll(() => page.getByTestId('install-steps').innerText()).toContain(c.step);
      } finally {
        await phone.close();
      }
    }
  });
});
