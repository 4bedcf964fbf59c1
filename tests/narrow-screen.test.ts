import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openPhone, type Phone, gotoQuiet } from './support/browser.ts';
import { callAs, PASSWORD, register, storeSession } from './support/session.ts';
import { tapLayout } from './support/tap-layout.ts';

const baseURL = inject('baseURL');
// Paper's account holds 10,000 USDT: the wide figures come from the bot's budget and first order.
const martin = { investment: '9000', firstOrder: '1234.56', multiplier: '1.5', maxPositions: 3, addTrigger: '2', takeProfit: '1.2', stopLoss: '8', repeat: true };

/** What a trader would see as broken on a 320 px screen, measured on the page as it is drawn. */
interface Breakage {
  /** Figures (a number with its sign, %, unit or "a / b") whose text takes two lines. */
  broken: string[];
  figures: number;
  /** The page scrolls sideways. */
  overflow: boolean;
  /** Elements whose right edge is past the screen's, outside a row made to scroll sideways (chips, banners). */
  pastEdge: string[];
  /** Buttons, links and tabs whose words run past their own border (not a name cut with an ellipsis). */
  spilling: string[];
  /** Table headers on more than one line ("Take-profit price" broke at its hyphen in the martin levels table). */
  wrappedHeaders: string[];
  /** Empty inputs whose placeholder (often the field's rule) is wider than the box it is drawn in. */
  cutPlaceholders: string[];
}

async function breakage(page: Page): Promise<Breakage> {
  return page.evaluate(() => {
    const numeric = /^[+-]?[\d,]+(\.\d+)?%?( [A-Z]{3,5})?( \/ [\d,]+(\.\d+)?)?$/;
    const describe = (el: Element) => `<${el.tagName.toLowerCase()}> "${(el.textContent ?? '').trim().slice(0, 40)}"`;
    // Inside a sideways-scrolling row that itself ends within the screen, an element may lie past the edge: the row scrolls to it.
    const inScroller = (el: Element) => {
      for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
        const { overflowX } = getComputedStyle(a);
        if (overflowX === 'auto' || overflowX === 'scroll') return a.getBoundingClientRect().right <= innerWidth + 0.5;
      }
      return false;
    };
    const broken: string[] = [];
    const pastEdge: string[] = [];
    const spilling: string[] = [];
    const cutPlaceholders: string[] = [];
    const wrappedHeaders: string[] = [];
    const lineCount = (el: Element) => {
      const range = document.createRange();
      range.selectNodeContents(el);
      return new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top))).size;
    };
    const canvas = document.createElement('canvas').getContext('2d')!;
    let figures = 0;
    for (const el of document.body.querySelectorAll('*')) {
      const rect = el.getBoundingClientRect();
      if (rect.width === 0 || rect.height === 0) continue;
      if (rect.right > innerWidth + 0.5 && !inScroller(el)) pastEdge.push(`${describe(el)} right=${Math.round(rect.right)}`);
      if (el.matches('button, a, [role="tab"]')) {
        // Its words against its content box (inside border and padding); a hit area drawn by ::after does not count.
        const style = getComputedStyle(el);
        const left = rect.left + Number.parseFloat(style.borderLeftWidth) + Number.parseFloat(style.paddingLeft);
        const right = rect.right - Number.parseFloat(style.borderRightWidth) - Number.parseFloat(style.paddingRight);
        const words = document.createRange();
        words.selectNodeContents(el);
        const spills = [...words.getClientRects()].some((r) => r.width > 0 && (r.left < left - 1 || r.right > right + 1));
        if (spills && style.textOverflow !== 'ellipsis') spilling.push(describe(el));
      }
      if (el.matches('th') && lineCount(el) > 1) wrappedHeaders.push(describe(el));
      if (el instanceof HTMLInputElement && el.placeholder && !el.value) {
        const style = getComputedStyle(el);
        canvas.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
        const box = el.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight);
        if (canvas.measureText(el.placeholder).width > box + 0.5) cutPlaceholders.push(`<input name="${el.name}"> "${el.placeholder}"`);
      }
      // Elements holding only text (React may split "19.62 / 1,000" into three text nodes of one element).
      if (el.children.length > 0 || !el.closest('main')) continue;
      const text = el.textContent?.trim() ?? '';
      if (!numeric.test(text) || text.length < 4) continue;
      figures++;
      if (lineCount(el) > 1) broken.push(text);
    }
    return { broken, figures, overflow: document.documentElement.scrollWidth > innerWidth, pastEdge, spilling, cutPlaceholders, wrappedHeaders };
  });
}

/**
 * Words of the other language (no Chinese in the en UI, no English in the zh UI): in en, any
 * Chinese character in the page's text, placeholders, labels for screen readers and titles; in zh,
 * English words in those attributes (the text itself holds brands, pairs, keys and links). An element
 * with a lang of its own (the language switch's 中文 / English) is left out.
 */
function foreignWords(page: Page, language: 'en' | 'zh'): Promise<string[]> {
  return page.evaluate((lang) => {
    const own = (el: Element | null) => {
      const tagged = el?.closest('[lang]');
      return !tagged || tagged === document.documentElement;
    };
    const han = /[\u4e00-\u9fff]/;
    const out = new Set<string>();
    if (lang === 'en') {
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) if (han.test(n.textContent ?? '') && own(n.parentElement)) out.add((n.textContent ?? '').trim().slice(0, 60));
    }
    for (const el of document.body.querySelectorAll('[placeholder], [aria-label], [title]')) {
      if (!own(el)) continue;
      for (const name of ['placeholder', 'aria-label', 'title']) {
        const value = el.getAttribute(name) ?? '';
        if (lang === 'en' ? han.test(value) : /\b[a-z]{3,}\b/.test(value)) out.add(`${name}="${value.slice(0, 60)}"`);
      }
    }
    return [...out];
  }, language);
}

/**
 * At 320 px (the narrowest phones), in English and Chinese: every logged-in screen holds, and its chips
 * and tabs are tap targets (support/tap-layout.ts). One visit of each screen serves both checks.
 */
describe('at 320 px', () => {
  let phone: Phone;
  let bot = '';
  beforeAll(async () => {
    phone = await openPhone(baseURL);
    await phone.page.setViewportSize({ width: 320, height: 700 });
    const user = await register(baseURL);
    expect((await callAs(baseURL, user, 'POST', '/api/exchanges/bind', { exchangeId: 1, apiKey: 'paperKey12345678', secretKey: 'paperSecret12345678' })).code).toBe(1);
    bot = (await callAs(baseURL, user, 'POST', '/api/user/botCreate', { type: 'martin', exchangeId: 1, symbol: 'BTC/USDT', name: 'Wide', params: martin })).data.id;
    expect((await callAs(baseURL, user, 'GET', `/api/user/botOperation?id=${bot}&action=start`)).code).toBe(1);
    // A payment password set: its security notice stays unread, so the notices screen shows 全部已读 / Mark all read in its header.
    expect((await callAs(baseURL, user, 'POST', '/api/user/password', { type: 'payment', old: PASSWORD, password: '135790', confirm: '135790' })).code).toBe(1);
    await storeSession(phone.page, user);
  });
  afterAll(() => phone.close());

  it('holds every logged-in screen in en and zh: no number or table header on two lines, no cut placeholder, no spilling button, nothing past the edge, no word of the other language; chips and buttons 44 px high, wide chip rows scrolling with a fade', {
    timeout: 360_000,
  }, async () => {
    const { page } = phone;
    // Each path with what shows once its data is in (a test id), or only its title when it has no data to wait for.
    const routes: [path: string, ready?: string][] = [
      [`/strategy/detail/${bot}`, 'bot-returns'],
      [`/strategy/action/${bot}`],
      ['/', 'portfolio-total'],
      ['/strategy', 'bot-list'],
      ['/strategy/martin', 'levels-total'],
      ['/strategy/grid'],
      ['/strategy/dca', 'dca-funds'],
      ['/strategy/custom', 'custom-explain'],
      ['/strategy/ai'],
      ['/strategy/bill'],
      ['/strategy/logs'],
      ['/strategy/size', 'levels-total'],
      ['/simulation', 'sim-bots'],
      ['/my'],
      ['/my/asset/balance', 'asset-balance'],
      ['/my/positions', 'open-positions'],
      ['/my/deposit'],
      ['/my/withdraw'],
      ['/my/profile'],
      ['/my/security'],
      ['/my/notifications', 'alert-kinds'],
      ['/portfolio'],
      ['/market', 'market-row'],
      ['/market?symbol=BTC%2FUSDT', 'symbol-head'],
      ['/futures'],
      ['/rank'],
      ['/referral'],
      ['/referral/list'],
      ['/referral/rule'],
      ['/team'],
      ['/notice/list', 'read-all'],
      ['/setting'],
      ['/lang'],
      ['/about', 'app-version'],
      ['/bind', 'exchange-list'],
      ['/legal/agreement'],
    ];
    for (const language of ['en', 'zh'] as const) {
      await page.evaluate((l) => localStorage.setItem('theme-storage', JSON.stringify({ theme: 'light', language: l })), language);
      for (const [path, ready] of routes) {
        const where = `${path} (${language})`;
        await gotoQuiet(page, path);
        await (ready ? page.getByTestId(ready).first() : page.locator('main h1')).waitFor();
        await expect.poll(() => page.locator('[aria-busy="true"]').count(), { message: where }).toBe(0);
        if (ready && ['bot-returns', 'portfolio-total', 'open-positions', 'asset-balance'].includes(ready)) {
          await expect.poll(async () => (await breakage(page)).figures, { message: where }).toBeGreaterThan(2);
        }
        await page.waitForTimeout(200); // late figures settle the layout
        const result = await breakage(page);
        expect.soft(result.broken, where).toEqual([]);
        expect.soft(result.overflow, where).toBe(false);
        expect.soft(result.pastEdge, where).toEqual([]);
        expect.soft(result.spilling, where).toEqual([]);
        expect.soft(result.cutPlaceholders, where).toEqual([]);
        expect.soft(result.wrappedHeaders, where).toEqual([]);
        expect.soft(await foreignWords(page, language), where).toEqual([]);
        const taps = await tapLayout(page);
        expect.soft(taps.scrollWidth, where).toBeLessThanOrEqual(320);
        expect.soft(taps.pastEdge, where).toEqual([]);
        expect.soft(taps.short, where).toEqual([]);
        expect.soft(taps.unfaded, where).toEqual([]);
        expect.soft(taps.needlessFade, where).toEqual([]);
      }
    }
  });
});

/** The logged-out screens, at the narrowest phone and on a desktop, in English and Chinese: nothing cut, spilled or past the edge. */
describe.each([320, 1280])('logged out at %i px', (width) => {
  let phone: Phone;
  let referrer = '';
  beforeAll(async () => {
    phone = await openPhone(baseURL);
    await phone.page.setViewportSize({ width, height: 700 });
    referrer = (await register(baseURL)).sn;
  });
  afterAll(() => phone.close());

  it('breaks nothing on /login, /register (plain, /register/{uid}, ?code=, with its field errors) and the agreement and privacy pages, in en and zh', { timeout: 120_000 }, async () => {
    const { page } = phone;
    // Each path with what shows once it is drawn, and whether to submit the empty form (its field errors then show).
    const routes: [path: string, ready: string, submit?: boolean][] = [
      ['/login', 'input[name="account"]'],
      ['/login', 'input[name="account"]', true],
      ['/register', 'input[name="account"]'],
      ['/register', 'input[name="account"]', true],
      [`/register/${referrer}`, `input[name="referrer"][value="${referrer}"]`],
      [`/register?code=${referrer}`, `input[name="referrer"][value="${referrer}"]`],
      ['/legal/agreement', '[data-testid="legal-agreement"]'],
      ['/legal/privacy', '[data-testid="legal-privacy"]'],
    ];
    await page.goto('/login');
    for (const language of ['en', 'zh'] as const) {
      await page.evaluate((l) => localStorage.setItem('theme-storage', JSON.stringify({ theme: 'light', language: l })), language);
      for (const [path, ready, submit] of routes) {
        const where = `${path}${submit ? ' (empty form sent)' : ''} (${language}, ${width} px)`;
        await gotoQuiet(page, path);
        await page.locator(ready).waitFor();
        if (submit) {
          await page.locator('form button[type="submit"]').click();
          await page.locator('[role="alert"]').first().waitFor();
        }
        const result = await breakage(page);
        expect.soft(result.overflow, where).toBe(false);
        expect.soft(result.pastEdge, where).toEqual([]);
        expect.soft(result.spilling, where).toEqual([]);
        expect.soft(result.cutPlaceholders, where).toEqual([]);
        expect.soft(await foreignWords(page, language), where).toEqual([]);
      }
    }
  });
});
