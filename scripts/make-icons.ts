// Renders the app icons into public/icons with Chromium (run by hand when the logo changes; the PNGs are
// committed): icons 192 and 512 from public/favicon.svg, a maskable 512 with the logo inside the 80% safe
// zone, and the notification badge (96: the logo's line alone, white on transparent, as Android draws a
// badge from its alpha in the status bar).
// Usage: node scripts/make-icons.ts
import { mkdirSync, readFileSync } from 'node:fs';
import { openPhone } from '../tests/support/browser.ts';

const svg = readFileSync('public/favicon.svg', 'utf8');
mkdirSync('public/icons', { recursive: true });
const phone = await openPhone('http://127.0.0.1');
const { page } = phone;
const render = async (size: number, file: string, maskable: boolean) => {
  await page.setViewportSize({ width: size, height: size });
  const inner = maskable ? Math.round(size * 0.72) : size;
  const logo = maskable ? svg.replace('rx="14"', 'rx="0"') : svg;
  await page.setContent(
    `<html><body style="margin:0;display:grid;place-items:center;width:${size}px;height:${size}px;background:${maskable ? '#1d5fd6' : 'transparent'}">` +
      `<div style="width:${inner}px;height:${inner}px">${logo.replace('<svg ', `<svg width="${inner}" height="${inner}" `)}</div></body></html>`,
  );
  await page.screenshot({ path: file, omitBackground: !maskable, clip: { x: 0, y: 0, width: size, height: size }, scale: 'css' });
};
await render(192, 'public/icons/icon-192.png', false);
await render(512, 'public/icons/icon-512.png', false);
await render(512, 'public/icons/maskable-512.png', true);
// The badge: the logo's line without its tile (a tile would be a white square in the status bar).
await page.setViewportSize({ width: 96, height: 96 });
const line = svg.replace(/<rect[^>]*\/>/, '').replace(/<title[^>]*>.*?<\/title>/, '');
await page.setContent(`<html><body style="margin:0;background:transparent">${line.replace('<svg ', '<svg width="96" height="96" ')}</body></html>`);
await page.screenshot({ path: 'public/icons/badge-96.png', omitBackground: true, clip: { x: 0, y: 0, width: 96, height: 96 }, scale: 'css' });
await phone.close();
console.log('icons in public/icons');
