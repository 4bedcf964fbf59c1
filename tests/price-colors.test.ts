import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Phone } from './support/browser.ts';
import { loggedInPhone } from './support/session.ts';

const baseURL = inject('baseURL');

/**
 * Red up, green down (numbers, words and layout): a setting many Chinese traders expect. The
 * colour a rise takes follows it on every screen (here the market list's up colour), it is kept across
 * reloads and set before the first paint (public/boot.js), in light and dark.
 */
describe('price colours', () => {
  let phone: Phone;
  let page: Page;
  beforeAll(async () => {
    ({ phone, page } = await loggedInPhone(baseURL));
  });
  afterAll(() => phone.close());

  const upColour = async () => {
    await page.goto('/market');
    const row = page.getByTestId('market-row').first();
    await row.waitFor();
    return row.evaluate((el) => getComputedStyle(el).getPropertyValue('--market-up').trim().toLowerCase());
  };

  it('rises in green by default, in red once chosen, kept after a reload, in both themes', async () => {
    expect(await upColour()).toBe('#18773a');
    await page.goto('/setting');
    await page.getByTestId('colors-red-up').click();
    await expect.poll(() => page.evaluate(() => document.documentElement.classList.contains('red-up'))).toBe(true);
    expect(await page.evaluate(() => localStorage.getItem('price-colors'))).toBe('"red-up"');
    expect(await upColour()).toBe('#c62828');
    // Before the app runs, the boot script has set it already.
    await page.reload({ waitUntil: 'domcontentloaded' });
    expect(await page.evaluate(() => document.documentElement.classList.contains('red-up'))).toBe(true);
    await page.evaluate(() => localStorage.setItem('theme-storage', JSON.stringify({ theme: 'dark', language: 'zh' })));
    expect(await upColour()).toBe('#ff6b6b');
    await page.goto('/setting');
    await page.getByTestId('colors-green-up').click();
    expect(await upColour()).toBe('#43c46b');
  });
});
