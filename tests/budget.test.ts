import { describe, expect, inject, it } from 'vitest';
import { measureLoginEntry } from '../bench/entry-size.ts';
import { measurePrecache } from '../bench/precache-size.ts';

const baseURL = inject('baseURL');

/** Issue 4's budgets, checked on every test run so that they cannot grow silently. */
describe('size budgets of the built PWA', () => {
  it('/login loads at most 110 kB of JavaScript (gzip), with no wallet or chart code', async () => {
    const entry = await measureLoginEntry(baseURL);
    expect(entry.walletOrChartCode).toEqual([]);
    expect(entry.gzipKB).toBeLessThanOrEqual(110);
  });

  it('precaches every script and style, at most 400 kB gzip in all', () => {
    const precache = measurePrecache();
    expect(precache.missing).toEqual([]); // every route chunk opens offline
    expect(precache.gzipKB).toBeLessThanOrEqual(400);
  });
});
