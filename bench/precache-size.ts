// What the service worker precaches (the manifest workbox injected into dist/sw.js), gzip-sized.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

export function measurePrecache(dist = 'dist') {
  const sw = readFileSync(join(dist, 'sw.js'), 'utf8');
  const list = /(\[\{"revision":.*?\}\])\)/.exec(sw)?.[1];
  if (!list) throw new Error('no precache manifest in dist/sw.js');
  const entries = JSON.parse(list) as { url: string; revision: string | null }[];
  const files = entries.map((e) => {
    const bytes = readFileSync(join(dist, e.url));
    return { url: e.url, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
  });
  const gzip = files.reduce((sum, f) => sum + f.gzip, 0);
  const scripts = readdirSync(join(dist, 'assets'))
    .filter((f) => f.endsWith('.js') || f.endsWith('.css'))
    .map((f) => `assets/${f}`);
  const missing = scripts.filter((s) => !entries.some((e) => e.url === s));
  return { entries: entries.length, gzipKB: +(gzip / 1000).toFixed(1), rawKB: +(files.reduce((s, f) => s + f.raw, 0) / 1000).toFixed(1), missing };
}
