import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { measureLoginEntry } from '../bench/entry-size.ts';
import { measurePrecache } from '../bench/precache-size.ts';

const baseURL = inject('baseURL');

/** The budgets of size and speed, checked on every test run so that they cannot grow silently. */
describe('size budgets of the built PWA', () => {
  it('/login loads at most 110 kB of JavaScript (gzip), with no wallet or chart code', async () => {
    const entry = await measureLoginEntry(baseURL);
    expect(entry.walletOrChartCode).toEqual([]);
    expect(entry.gzipKB).toBeLessThanOrEqual(110);
  });

  // 421.1 kB once (2026-11-24): the all-bots log imported a list from contract/bots.ts and with it zod
  // (about 25 kB gzip), and the manifest's icons were precached; both out, 386.5 kB. The legal pages
  // added 9 kB and the wallet's online-only code (31 kB) left: about 370 kB. The notifications screen
  // (2026-11-28: its code 4.6 kB, its zh and en catalogs 4.1 kB, the worker's push handler 0.8 kB) took
  // 395.0 kB to 404.3 kB: 410 kB. The screens grew to 409.8 kB by 2026-11-29, and a martin or DCA bot's
  // resting orders on its detail (0.3 kB) passed it: 412 kB.
  it('precaches every script and style, at most 412 kB gzip in all, with no schema library (zod stays on the server)', () => {
    const precache = measurePrecache();
    // Every route chunk opens offline; only the wallet's connection and deposit code, a custom bot's
    // indicator panes and the QR code library are left to the network (a wallet sign-in or an on-chain
    // deposit cannot happen offline, the panes are drawn on candles fetched for them, and a QR code is drawn
    // beside the text it encodes, which shows offline: vite.config.ts).
    expect(precache.missing.filter((f) => !/^assets\/(wallet-(connect|deposit)|indicator-plots|qrcode)-[\w-]+\.js$/.test(f))).toEqual([]);
    // The connection code is a chunk of its own, shared by the deposit and the dev chain's faucet; the panes' one, the QR code's: five files at most.
    expect(precache.missing.length).toBeLessThanOrEqual(5);
    expect(precache.gzipKB).toBeLessThanOrEqual(412);
    const assets = readdirSync('dist/assets').filter((f) => f.endsWith('.js'));
    expect(assets.filter((f) => /\$ZodType|ZodError/.test(readFileSync(join('dist/assets', f), 'utf8')))).toEqual([]);
  });
});
