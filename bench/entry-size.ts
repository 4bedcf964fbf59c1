// The JavaScript that /login loads before it is usable, gzip-sized from dist/, found by loading the
// page in Chromium; also checks that no wallet or chart code is among it.
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { openPhone } from '../tests/support/browser.ts';

const forbidden = [/wagmi/i, /@walletconnect|walletconnect\.com/i, /eth_requestAccounts/, /lightweight-charts/i, /echarts/i, /recharts/i];

/** Loads /login on `baseURL` and returns the gzip size of each JS file it fetched. */
export async function measureLoginEntry(baseURL: string) {
  const phone = await openPhone(baseURL);
  const scripts = new Set<string>();
  phone.page.on('response', (r) => {
    const url = new URL(r.url());
    if (url.pathname.endsWith('.js') && !url.pathname.endsWith('/sw.js')) scripts.add(url.pathname);
  });
  await phone.page.goto('/login', { waitUntil: 'networkidle' });
  await phone.page.locator('input[name="account"]').waitFor();
  await phone.close();
  const files = [...scripts].map((path) => {
    const code = readFileSync(join(process.env.STATIC_DIR ?? 'dist', path));
    return { path, raw: code.length, gzip: gzipSync(code, { level: 9 }).length, offending: forbidden.filter((re) => re.test(code.toString())).map(String) };
  });
  const gzipTotal = files.reduce((sum, f) => sum + f.gzip, 0);
  return { gzipKB: +(gzipTotal / 1000).toFixed(1), files, walletOrChartCode: files.flatMap((f) => f.offending) };
}
