import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Phone } from './support/browser.ts';
import { callAs, loggedInPhone, PASSWORD, type Registered } from './support/session.ts';

const baseURL = inject('baseURL');

/**
 * The notices list with unread notices at 390 px: 全部已读 / Mark all read was pushed
 * past the right edge (the page 407 px wide). In both languages the button sits inside the screen,
 * nothing scrolls sideways, and marking all read clears the unread marks and the button.
 */
describe('notices at 390 px', () => {
  let phone: Phone;
  let page: Page;
  let user: Registered;

  beforeAll(async () => {
    ({ phone, page, user } = await loggedInPhone(baseURL));
    // A payment password set and then changed: each change leaves a security notice, unread.
    expect((await callAs(baseURL, user, 'POST', '/api/user/password', { type: 'payment', old: PASSWORD, password: '135790', confirm: '135790' })).code).toBe(1);
    expect((await callAs(baseURL, user, 'POST', '/api/user/password', { type: 'payment', old: '135790', password: '246801', confirm: '246801' })).code).toBe(1);
  });
  afterAll(() => phone.close());

  const fitsTheScreen = async () => {
    const box = (await page.getByTestId('read-all').boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    // A tap target of at least 44 px: the button is 36 px high to the eye, its hit area reaches 5 px above and below.
    const hit = (y: number) => page.evaluate(([x, y]) => document.elementFromPoint(x!, y!)?.closest('[data-testid="read-all"]') !== null, [box.x + box.width / 2, y]);
    expect([await hit(box.y + box.height / 2 - 22), await hit(box.y + box.height / 2 + 21.5)]).toEqual([true, true]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  };

  it('keeps 全部已读 inside the screen in zh, and Mark all read in en', async () => {
    for (const language of ['zh', 'en'] as const) {
      await page.evaluate((l) => localStorage.setItem('theme-storage', JSON.stringify({ theme: 'light', language: l })), language);
      await page.goto('/notice/list');
      await expect.poll(() => page.getByTestId('read-all').innerText()).toBe(language === 'zh' ? '全部已读' : 'Mark all read');
      await expect.poll(() => page.getByTestId('notice-list').locator('li').count()).toBeGreaterThanOrEqual(1);
      await fitsTheScreen();
    }
  });

  it('counts unread notices on the bell, the My tab and the My rows, live, and opening one lowers them', async () => {
    const unreadNow = async () => (await callAs<{ unread: number; list: { id: string }[] }>(baseURL, user, 'GET', '/api/notice/list?page=1&page_size=10')).data;
    const before = await unreadNow();
    expect(before.unread).toBeGreaterThanOrEqual(2);
    await page.goto('/');
    const bell = page.getByTestId('notice-bell').getByTestId('unread-badge');
    const tab = page.getByTestId('tab-bar').getByTestId('unread-badge');
    await expect.poll(() => bell.innerText()).toBe(String(before.unread));
    expect(await tab.innerText()).toBe(String(before.unread));
    // A new security notice reaches the open screen through the live stream, no reload.
    expect((await callAs(baseURL, user, 'POST', '/api/user/password', { type: 'payment', old: '246801', password: '135791', confirm: '135791' })).code).toBe(1);
    await expect.poll(() => bell.innerText(), { timeout: 10_000 }).toBe(String(before.unread + 1));
    await page.goto('/my');
    const rows = page.getByTestId('unread-badge');
    await expect.poll(() => rows.count()).toBeGreaterThanOrEqual(3);
    // Opening one marks it read: back home, the count is one less.
    await page.goto(`/notice/detail?id=${(await unreadNow()).list[0]!.id}`);
    await page.getByTestId('notice-detail').waitFor();
    await page.goto('/');
    await expect.poll(() => bell.innerText()).toBe(String(before.unread));
  });

  it('marks every notice read: the unread marks and the button go', async () => {
    await page.goto('/notice/list');
    await page.getByTestId('read-all').waitFor();
    expect(await page.getByTestId('notice-list').innerText()).toContain('●');
    await page.getByTestId('read-all').click();
    await page.getByTestId('read-all').waitFor({ state: 'detached' });
    await expect.poll(() => page.getByTestId('notice-list').innerText()).not.toContain('●');
    const unread = await callAs<{ unread: number }>(baseURL, user, 'GET', '/api/notice/list?page=1&page_size=10');
    expect(unread.data.unread).toBe(0);
  });
});
