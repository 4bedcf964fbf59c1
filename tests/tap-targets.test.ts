import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Phone } from './support/browser.ts';
import { callAs, loggedInPhone } from './support/session.ts';

const baseURL = inject('baseURL');

/**
 * Tap targets of at least 44 x 44 px (chips, segments, text links, header buttons): on each
 * screen, every link, button, tab, switch and radio label on screen takes a tap 21.5 px above, below,
 * left and right of its centre, whatever its size to the eye. One that is covered (the tab bar) or cut
 * by a scrolling row is skipped: the trader scrolls to it first.
 */
async function smallTargets(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    const targets = [...document.querySelectorAll<HTMLElement>('a[href], button, [role=button], [role=tab], [role=switch], label:has(input)')];
    const owns = (el: HTMLElement, x: number, y: number) => {
      const hit = document.elementFromPoint(x, y);
      return hit !== null && (hit === el || el.contains(hit));
    };
    for (const el of targets) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0 || r.top < 0 || r.bottom > innerHeight || r.left < 0 || r.right > innerWidth) continue;
      const cx = r.left + r.width / 2;
      const cy = r.top + r.height / 2;
      // Covered (the tab bar), even in part, or cut off by a scrolling row: skipped.
      if (!owns(el, cx, cy) || !owns(el, cx, r.top + 1) || !owns(el, cx, r.bottom - 1)) continue;
      const around = { up: [cx, cy - 21.5], down: [cx, cy + 21.5], left: [cx - 21.5, cy], right: [cx + 21.5, cy] } as const;
      const missed = Object.entries(around)
        .filter(([, [x, y]]) => !owns(el, x, y))
        .map(([side]) => side);
      if (missed.length > 0)
        out.push(`${el.tagName.toLowerCase()} "${(el.innerText || el.getAttribute('aria-label') || '').trim().slice(0, 16)}" ${Math.round(r.width)}x${Math.round(r.height)}: ${missed.join(',')}`);
    }
    return out;
  });
}

describe('tap targets at 390 px', () => {
  let phone: Phone;
  let page: Page;
  beforeAll(async () => {
    const session = await loggedInPhone(baseURL);
    ({ phone, page } = session);
    expect((await callAs(baseURL, session.user, 'POST', '/api/exchanges/bind', { exchangeId: 1, apiKey: 'paperkey01', secretKey: 'papersecret01' })).code).toBe(1);
  });
  afterAll(() => phone.close());

  for (const [path, ready] of [
    ['/', 'portfolio'],
    ['/strategy', 'strategy-tools'],
    ['/market', 'market-row'],
    ['/rank', 'rank-me'],
    ['/setting', 'theme-switch'],
    ['/my/notifications', 'alert-kinds'],
    ['/my/asset/balance', 'asset-balance'],
  ] as const) {
    it(`on ${path}`, async () => {
      await page.goto(path);
      await page.getByTestId(ready).first().waitFor();
      await page.waitForTimeout(300); // late figures settle the layout
      expect(await smallTargets(page)).toEqual([]);
    });
  }
});
