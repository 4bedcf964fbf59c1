import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openPhone, type Phone } from './support/browser.ts';
import { register as registerAt, storeSession } from './support/session.ts';

const baseURL = inject('baseURL');
const register = (referrer?: string) => registerAt(baseURL, referrer);

describe('inviting friends', () => {
  let phone: Phone;
  let page: Page;
  beforeAll(async () => {
    phone = await openPhone(baseURL);
    page = phone.page;
  });
  afterAll(async () => phone?.close());

  it('shows the invite link with its QR code, and the friend who registered through it in the team', async () => {
    const me = await register();
    const friend = await register(me.sn);
    await storeSession(page, me);
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
