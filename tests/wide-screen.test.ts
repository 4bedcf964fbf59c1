import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import { register, storeSession } from './support/session.ts';

const baseURL = inject('baseURL');

/**
 * The app on a desktop browser, 1280 px wide with a mouse: a centred phone-width column
 * with its tab bar inside it, and banners that a mouse can scroll (a thin scrollbar to drag, and
 * shift + wheel).
 */
describe('at 1280 px with a mouse', () => {
  let browser: Browser;
  let page: Page;
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--headless=new', '--no-sandbox', '--disable-gpu'] });
    page = await (await browser.newContext({ baseURL, viewport: { width: 1280, height: 800 }, locale: 'zh-CN' })).newPage();
    await storeSession(page, await register(baseURL));
  });
  afterAll(() => browser.close());

  it('is a centred column of 480 px, its tab bar inside it', async () => {
    await page.goto('/');
    await page.getByTestId('home-banners').waitFor();
    const column = (await page.locator('#root').boundingBox())!;
    expect([column.x, column.width]).toEqual([400, 480]);
    const bar = (await page.getByTestId('tab-bar').boundingBox())!;
    expect([bar.x, bar.width]).toEqual([400, 480]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(1280);
  });

  it('scrolls the banners with the mouse', async () => {
    const strip = page.getByTestId('home-banners');
    expect(await strip.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true); // more banners than fit
    // A scrollbar to drag (headless Chromium hides scrollbars themselves: its style is what can be checked).
    expect(await strip.evaluate((el) => [matchMedia('(pointer: fine)').matches, getComputedStyle(el).scrollbarWidth])).toEqual([true, 'thin']);
    const box = (await strip.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.keyboard.down('Shift');
    await page.mouse.wheel(0, 300);
    await page.keyboard.up('Shift');
    await expect.poll(() => strip.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
  });
});
