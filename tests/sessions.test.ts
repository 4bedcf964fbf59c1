import { afterEach, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Phone } from './support/browser.ts';
import { callAs, loggedInPhone, PASSWORD } from './support/session.ts';

const baseURL = inject('baseURL');
const ANDROID = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Mobile Safari/537.36';

/** Another login of the account, from another device (terminal 3, an Android phone's browser): its token. */
async function loginElsewhere(account: string, terminal = 3): Promise<{ token: string }> {
  const res = await fetch(`${baseURL}/api/login/account`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': ANDROID },
    body: JSON.stringify({ terminal, account, password: PASSWORD }),
  });
  const body = (await res.json()) as { code: number; data: { token: string } };
  expect(body.code).toBe(1);
  return { token: body.data.token };
}

const rows = (page: Page) => page.getByTestId('session-row');

/**
 * The signed-in devices on /my/security: the trader sees this phone and another login, signs the other
 * out (its next call is ended: 2003), and signs everything else out after a confirmation; in zh and
 * light, and in en and dark, at 390x844 without sideways scrolling.
 */
describe('signed-in devices', () => {
  let phone: Phone | undefined;
  afterEach(async () => {
    await phone?.close();
    phone = undefined;
  });

  it('lists two sessions and signs the other one out: its next call is ended (2003)', async () => {
    const session = await loggedInPhone(baseURL);
    phone = session.phone;
    const { page, user } = session;
    const other = await loginElsewhere(user.account!);

    await page.goto('/my/security');
    await expect.poll(() => rows(page).count()).toBe(2);
    const mine = rows(page).and(page.locator('[data-current="1"]'));
    const theirs = rows(page).and(page.locator('[data-current="0"]'));
    expect(await mine.innerText()).toContain('本设备');
    expect(await mine.getByTestId('session-end').count()).toBe(0);
    expect(await theirs.innerText()).toContain('Chrome · Android');
    expect(await theirs.innerText()).toMatch(/IP \S+ · 最近使用 \d{4}\/\d{2}\/\d{2} \d{2}:\d{2}/);
    expect(await page.evaluate(() => document.scrollingElement!.scrollWidth)).toBeLessThanOrEqual(390);

    await theirs.getByTestId('session-end').click();
    await expect.poll(() => rows(page).count()).toBe(1);
    expect((await callAs(baseURL, other, 'GET', '/api/user/account')).code).toBe(2003);
    expect((await callAs(baseURL, user, 'GET', '/api/user/account')).code).toBe(1);
    expect(await page.getByTestId('sessions-end-others').count()).toBe(0); // nothing else to sign out
  });

  it('signs every other device out after a confirmation, in English and dark', async () => {
    const session = await loggedInPhone(baseURL);
    phone = session.phone;
    const { page, user } = session;
    await page.evaluate(() => localStorage.setItem('theme-storage', JSON.stringify({ theme: 'dark', language: 'en' })));
    const others = [await loginElsewhere(user.account!, 2), await loginElsewhere(user.account!, 3)];

    await page.goto('/my/security');
    await expect.poll(() => rows(page).count()).toBe(3);
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
    expect(await page.getByTestId('sessions').getByRole('heading').innerText()).toBe('Signed-in devices');
    expect(await rows(page).and(page.locator('[data-current="1"]')).innerText()).toContain('This device');
    await page.getByTestId('sessions-end-others').click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    expect(await dialog.innerText()).toContain('Sign out everywhere else?');
    await dialog.getByRole('button', { name: 'Sign them out' }).click();
    await expect.poll(() => rows(page).count()).toBe(1);
    for (const o of others) expect((await callAs(baseURL, o, 'GET', '/api/user/account')).code).toBe(2003);
    expect(await page.evaluate(() => document.scrollingElement!.scrollWidth)).toBeLessThanOrEqual(390);
  });
});
