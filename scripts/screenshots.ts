// Screenshots of the given paths at 390x844 in zh/en x light/dark, for looking at the UI.
// Usage: node scripts/screenshots.ts <baseURL> <outDir> <path...>   (logs in as a new user first
// unless the path list starts with "--guest"). With SEED_BOT=1 the new user binds Paper and creates
// and starts a martin bot first; "{bot}" in a path is replaced by its id. SEED_SCRIPT=<file> runs that
// module's default export ({ baseURL, token, user }) after the registration. SHOT_WIDTH=320 (or 1280)
// changes the viewport's width; SHOT_LANGS=zh and SHOT_THEMES=light narrow the matrix; FULL_PAGE=1 takes
// the whole page; SHOT_SELECTOR=<css> takes only the first element it matches (a table, a dialog).
import { resolve } from 'node:path';
import { mkdirSync } from 'node:fs';
import { closeSharedBrowser, gotoQuiet, openPhone } from '../tests/support/browser.ts';
import { register } from '../tests/support/session.ts';

const [baseURL = 'http://127.0.0.1:8080', outDir = '/tmp/shots', ...rest] = process.argv.slice(2);
const guest = rest[0] === '--guest';
const paths = guest ? rest.slice(1) : rest;
mkdirSync(outDir, { recursive: true });

const phone = await openPhone(baseURL);
const { page } = phone;
if (process.env.SHOT_WIDTH) await page.setViewportSize({ width: Number(process.env.SHOT_WIDTH), height: 844 });
await page.goto('/test');
if (!guest) {
  // Registration needs a solved proof-of-work challenge: solved here in Node, as the PWA does in the browser.
  const res = { data: await register(baseURL) };
  const { token, ...user } = (res as { data: Record<string, string> }).data;
  await page.evaluate(
    ([t, u]) => {
      localStorage.setItem('token', JSON.stringify(t));
      localStorage.setItem('user', JSON.stringify({ ...JSON.parse(u!), password: true }));
    },
    [token, JSON.stringify(user)] as const,
  );
  // SEED_SCRIPT=<file>: a module whose default export seeds more for the new user (e.g. rows through DATABASE_URL).
  if (process.env.SEED_SCRIPT) await (await import(resolve(process.env.SEED_SCRIPT))).default({ baseURL, token, user });
  if (process.env.SEED_BOT === '1') {
    const bot = await page.evaluate(async (t) => {
      const call = async (method: string, path: string, body?: unknown) => {
        const r = await fetch(`/api${path}`, { method, headers: { 'content-type': 'application/json', authorization: `Bearer ${t}` }, ...(body ? { body: JSON.stringify(body) } : {}) });
        const json = (await r.json()) as { code: number; msg: string; data: { id: string } & Record<string, unknown> };
        if (json.code !== 1) throw new Error(`${path}: ${json.msg}`);
        return json.data;
      };
      const exchanges = (await call('GET', '/market/exchanges')) as unknown as { exchanges: { id: number; code: string }[] };
      const paper = exchanges.exchanges.find((e) => e.code === 'paper')!;
      await call('POST', '/exchanges/bind', { exchangeId: paper.id, apiKey: 'paperkey001', secretKey: 'papersecret001' });
      const params = { investment: '1000', firstOrder: '20', multiplier: '2', maxPositions: 5, addTrigger: '0.2', takeProfit: '0.2', stopLoss: '', repeat: true };
      const created = await call('POST', '/user/botCreate', { type: 'martin', exchangeId: paper.id, symbol: 'BTC/USDT', name: 'BTC 马丁', params });
      await call('GET', `/user/botOperation?id=${created.id}&action=start`);
      await call('POST', '/user/botCreate', { type: 'martin', exchangeId: paper.id, symbol: 'ETH/USDT', params });
      return created.id;
    }, token as string);
    paths.splice(0, paths.length, ...paths.map((p) => p.replace('{bot}', bot)));
    await page.waitForTimeout(Number(process.env.SEED_WAIT_MS ?? 8000));
  }
}
const languages = (process.env.SHOT_LANGS ?? 'zh,en').split(',') as ('zh' | 'en')[];
const selector = process.env.SHOT_SELECTOR;
const themes = (process.env.SHOT_THEMES ?? 'light,dark').split(',') as ('light' | 'dark')[];
for (const language of languages) {
  for (const theme of themes) {
    await page.evaluate(([l, t]) => localStorage.setItem('theme-storage', JSON.stringify({ theme: t, language: l })), [language, theme] as const);
    for (const path of paths) {
      await gotoQuiet(page, path);
      await page.waitForTimeout(300);
      const name = `${path.replace(/\W+/g, '_') || 'root'}-${language}-${theme}${process.env.SHOT_WIDTH ? `-${process.env.SHOT_WIDTH}` : ''}.png`;
      const shot = { path: `${outDir}/${name}` };
      if (selector) await page.locator(selector).first().screenshot(shot);
      else await page.screenshot({ ...shot, fullPage: process.env.FULL_PAGE === '1' });
    }
  }
}
await phone.close();
await closeSharedBrowser();
console.log(`screenshots in ${outDir}`);
