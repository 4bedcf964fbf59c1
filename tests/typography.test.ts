import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openPhone, type Phone } from './support/browser.ts';

const baseURL = inject('baseURL');
/** A Chinese character: one full-width cell. */
const HAN = '中';

/** The drawn width, in px, of each text in the page's body font (a span inside <main>, removed again). */
function widths(page: Page, texts: string[]): Promise<Record<string, number>> {
  return page.evaluate((list) => {
    const out: Record<string, number> = {};
    for (const text of list) {
      const span = document.createElement('span');
      span.textContent = text;
      document.querySelector('main')!.append(span);
      out[text] = span.getBoundingClientRect().width;
      span.remove();
    }
    return out;
  }, texts);
}

/**
 * English texts keep their typographic apostrophes and quotes, drawn by a Latin font: with the CJK font
 * first in the stack, "market’s" read "market’ s" (a full-width ’). Chinese keeps its full-width
 * punctuation.
 */
describe('punctuation glyphs', () => {
  let phone: Phone;
  beforeAll(async () => {
    phone = await openPhone(baseURL);
  });
  afterAll(() => phone.close());

  const open = async (language: 'en' | 'zh') => {
    const { page } = phone;
    await page.goto('/login');
    await page.evaluate((l) => localStorage.setItem('theme-storage', JSON.stringify({ theme: 'light', language: l })), language);
    await page.goto('/login');
    await page.locator('input[name="account"]').waitFor();
    return page;
  };

  it('draws ’ “ ” narrow in English, as a Latin font does, not a full CJK cell', async () => {
    const page = await open('en');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
    const w = await widths(page, ['’', '“', '”', HAN]);
    // A Latin font's quotes are 0.2-0.55 em (DejaVu Sans' “ is 0.52 em); a CJK font's are 1 em.
    for (const mark of ['’', '“', '”']) expect(w[mark], mark).toBeLessThan(w[HAN]! * 0.6);
  });

  it('keeps Chinese punctuation full-width in Chinese', async () => {
    const page = await open('zh');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('zh-CN');
    const w = await widths(page, ['，', '“', '”', HAN]);
    for (const mark of ['，', '“', '”']) expect(w[mark], mark).toBeCloseTo(w[HAN]!, 0);
  });
});
