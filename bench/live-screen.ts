// From a bot's change to the screen that shows it: the real server (built PWA, embedded database), a
// trader's Paper bot open on its detail screen in Chromium with the live stream up; the bot is paused and
// resumed through the API, each time timed from the call to the screen's button flipping (the call answers
// once the change is committed, so the figure is commit to screen plus the call's own way back).
// `node bench/live-screen.ts [n]` (default 20 changes) prints JSON. Target: < 300 ms median. Needs dist/.
import { openPhone } from '../tests/support/browser.ts';
import { callAs, register, storeSession } from '../tests/support/session.ts';
import { measureServerReady } from './server-ready.ts';
import { median, percentile, round } from './stats.ts';

const martin = { investment: '1000', firstOrder: '10', multiplier: '1', maxPositions: 5, addTrigger: '2', takeProfit: '1', repeat: true };

export async function measureLiveScreen(port: number, n = 20): Promise<Record<string, unknown>> {
  const server = await measureServerReady(port);
  const baseURL = `http://127.0.0.1:${port}`;
  try {
    const user = await register(baseURL);
    await callAs(baseURL, user, 'POST', '/api/exchanges/bind', { exchangeId: 1, apiKey: 'paperKey12345678', secretKey: 'paperSecret12345678' });
    const bot = (await callAs(baseURL, user, 'POST', '/api/user/botCreate', { type: 'martin', exchangeId: 1, symbol: 'BTC/USDT', params: martin })).data.id as string;
    await callAs(baseURL, user, 'GET', `/api/user/botOperation?id=${bot}&action=start`);
    const phone = await openPhone(baseURL);
    try {
      const { page } = phone;
      await storeSession(page, user);
      await page.goto(`/strategy/detail/${bot}`);
      await page.getByTestId('op-pause').waitFor();
      // The stream is up once its module loaded and the server said ready; then polling stops.
      await page.waitForTimeout(3000);
      const times: number[] = [];
      for (let i = 0; i < n; i++) {
        const [action, shows] = i % 2 === 0 ? (['pause', 'op-resume'] as const) : (['resume', 'op-pause'] as const);
        const started = performance.now();
        const answer = await callAs(baseURL, user, 'GET', `/api/user/botOperation?id=${bot}&action=${action}`);
        if (answer.code !== 1) throw new Error(`${action}: ${answer.msg}`);
        await page.getByTestId(shows).waitFor({ timeout: 10_000 });
        times.push(performance.now() - started);
        await page.waitForTimeout(300);
      }
      return { commitToScreenMs: { median: round(median(times), 1), p95: round(percentile(times, 0.95), 1), max: round(Math.max(...times), 1), n: times.length } };
    } finally {
      await phone.close();
    }
  } finally {
    await server.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await measureLiveScreen(19_600 + Math.floor(Math.random() * 300), Number(process.argv[2] ?? 20)), null, 2));
  process.exit(0);
}
