// First contentful paint of a repeat visit served by the service worker, on a 4x CPU-throttled phone
// (Chromium through the DevTools protocol): the first visit installs the worker and precaches the
// shell, then each measured load comes from it. Median of `runs` loads of `path`.
import { gotoQuiet, openPhone } from '../tests/support/browser.ts';
import { median } from './stats.ts';

export async function measureRepeatVisitFcp(baseURL: string, path = '/login', runs = 7, login?: { token: string; user: object }) {
  const phone = await openPhone(baseURL);
  try {
    const { page, context } = phone;
    if (login) {
      await page.goto('/test');
      await page.evaluate(
        ([t, u]) => {
          localStorage.setItem('token', JSON.stringify(t));
          localStorage.setItem('user', u!);
        },
        [login.token, JSON.stringify({ ...login.user, password: true })] as const,
      );
    }
    await gotoQuiet(page, path);
    await page.evaluate(async () => {
      const r = await navigator.serviceWorker.ready;
      const w = r.active!;
      if (w.state !== 'activated') await new Promise((ok) => w.addEventListener('statechange', () => w.state === 'activated' && ok(null)));
    });
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    const fcps: number[] = [];
    let fromWorker = 0;
    for (let i = 0; i < runs + 1; i++) {
      const response = await page.goto(path, { waitUntil: 'load' });
      if (response?.fromServiceWorker()) fromWorker++;
      const fcp = await page.evaluate(
        () =>
          new Promise<number>((resolve) => {
            const seen = performance.getEntriesByName('first-contentful-paint')[0];
            if (seen) return resolve(seen.startTime);
            new PerformanceObserver((list) => resolve(list.getEntries()[0]!.startTime)).observe({ type: 'paint', buffered: true });
          }),
      );
      if (i > 0) fcps.push(fcp); // the first throttled load warms the worker up
    }
    return { medianMs: Math.round(median(fcps)), runs: fcps.map(Math.round), servedByWorker: `${fromWorker}/${runs + 1}`, cpuThrottle: 4 };
  } finally {
    await phone.close();
  }
}
