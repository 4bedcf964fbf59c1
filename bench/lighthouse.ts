// Lighthouse 13 (mobile preset: a throttled mid-range phone) on the built app, through Debian's
// Chromium: performance, accessibility and best practices of a page, median of `runs` cold loads.
// A logged-in page gets its token in localStorage first, from a file of the site that runs none of the
// app (/favicon.svg; it was /test before: that put the app's scripts into the HTTP cache, and
// on the measured load V8 then cached their compiled code, a long task of its own in some runs only);
// the service worker and caches are cleared too, so that each run is a first visit.
// LIGHTHOUSE_JSON_DIR=<folder> keeps each run's whole report there (main-thread work, bootup time, long
// tasks, network requests) to see what a score is made of.
import lighthouse from 'lighthouse';
import * as chromeLauncher from 'chrome-launcher';
import { chromium } from 'playwright-core';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { median } from './stats.ts';

const flags = ['--headless=new', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export async function measureLighthouse(baseURL: string, path: string, runs = 5, login?: { token: string; user: object }) {
  const scores: Record<'performance' | 'accessibility' | 'best-practices', number[]> = { performance: [], accessibility: [], 'best-practices': [] };
  const metrics: { fcp: number[]; lcp: number[]; tbt: number[] } = { fcp: [], lcp: [], tbt: [] };
  for (let i = 0; i < runs; i++) {
    const chrome = await chromeLauncher.launch({ chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', chromeFlags: flags });
    try {
      if (login) {
        const browser = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
        const page = await browser.contexts()[0]!.newPage();
        await page.goto(`${baseURL}/favicon.svg`);
        await page.evaluate(
          async ([t, u]) => {
            localStorage.setItem('token', JSON.stringify(t));
            localStorage.setItem('user', u!);
            for (const r of await navigator.serviceWorker.getRegistrations()) await r.unregister();
            for (const k of await caches.keys()) await caches.delete(k);
          },
          [login.token, JSON.stringify({ ...login.user, password: true })] as const,
        );
        await page.close();
        await browser.close();
      }
      const result = await lighthouse(`${baseURL}${path}`, {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance', 'accessibility', 'best-practices'],
        disableStorageReset: Boolean(login),
      });
      const lhr = result!.lhr;
      const keep = process.env.LIGHTHOUSE_JSON_DIR;
      if (keep) {
        mkdirSync(keep, { recursive: true });
        writeFileSync(join(keep, `${path.replace(/\W+/g, '_') || '_'}-${login ? 'in' : 'out'}-${i + 1}.json`), JSON.stringify(lhr));
      }
      for (const key of Object.keys(scores) as (keyof typeof scores)[]) scores[key].push(Math.round((lhr.categories[key]?.score ?? 0) * 100));
      metrics.fcp.push(lhr.audits['first-contentful-paint']?.numericValue ?? 0);
      metrics.lcp.push(lhr.audits['largest-contentful-paint']?.numericValue ?? 0);
      metrics.tbt.push(lhr.audits['total-blocking-time']?.numericValue ?? 0);
    } finally {
      chrome.kill();
    }
  }
  return {
    path,
    performance: median(scores.performance),
    accessibility: median(scores.accessibility),
    bestPractices: median(scores['best-practices']),
    runs: scores,
    medianMs: { fcp: Math.round(median(metrics.fcp)), lcp: Math.round(median(metrics.lcp)), tbt: Math.round(median(metrics.tbt)) },
    tbtRunsMs: metrics.tbt.map(Math.round),
  };
}
