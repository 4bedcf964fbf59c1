import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openPhone, uniqueAccount, type Phone } from './support/browser.ts';

const baseURL = inject('baseURL');
const password = 'Trade2026x';

async function register(referrer?: string): Promise<{ token: string } & Record<string, string>> {
  const res = await fetch(`${baseURL}/api/login/register`, {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ terminal: 1, account: uniqueAccount('f'), password, confirm: password, ...(referrer ? { referrer } : {}) }),
  });
  return ((await res.json()) as { data: { token: string } & Record<string, string> }).data;
}

describe('inviting friends', () => {
  let phone: Phone;
  let page: Page;
  beforeAll(async () => {
    phone = await openPhone(baseURL);
    page = phone.page;
  });
  afterAll(async () => phone?.close());

  it('shows the invite link with its QR code, and the friend who registered through it in the team', async () => {
    const { token, ...me } = await register();
    const friend = await register(me.sn);
    await page.goto('/test');
    await page.evaluate(([t, u]) => {
      localStorage.setItem('token', JSON.stringify(t));
      localStorage.setItem('user', JSON.stringify({ ...JSON.parse(u!), password: true }));
    }, [token, JSON.stringify(me)] as const);
    await page.goto('/referral');
    expect(await page.getByTestId('referral-link').innerText()).toBe(`${baseURL}/register/${me.sn}`);
    await expect.poll(() => page.getByTestId('referral-qr').getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    await expect.poll(() => page.getByTestId('team-size').innerText()).toBe('1');
    await page.goto('/team');
    await expect.poll(() => page.getByTestId('team-list').innerText()).toContain(`UID ${friend.sn}`);
    expect(await page.getByTestId('team-list').innerText()).toContain('直推');
    await page.goto('/referral/rule');
    await expect.poll(() => page.locator('main').innerText()).toContain('你获得 10%');
  });
});
