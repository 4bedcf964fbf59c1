import { FAKE_CLIENT_OPTIONS } from './client.ts';
import { DEFAULT_PRICES, FakeBinance } from './server.ts';
import { dec, floorTo } from './numbers.ts';
import { seeded } from './volume.ts';

/**
 * The fake exchange as a process, for demos (README.md):
 *
 *   PORT=9090 PRICES="BTC/USDT=65000,ETH/USDT=3000" node server/testing/fake-binance/main.ts
 *
 * PORT (a free one unless given), PRICES and BALANCES ("USDT=10000,BTC=0.5") as symbol=value lists,
 * SEED, and WALK_MS: every so many milliseconds each price takes a seeded random step of up to
 * WALK_PCT percent (0.1 unless given), so resting orders fill while a demo runs. Prints the URL, the
 * keys and the ccxt settings that reach it.
 */

const pairs = (text: string | undefined): Record<string, string> =>
  Object.fromEntries(
    (text ?? '')
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean)
      .map((p) => {
        const [k, v] = p.split('=');
        if (!k || !v) throw new Error(`expected symbol=value, got "${p}"`);
        return [k.trim(), v.trim()];
      }),
  );

const env = process.env;
const seed = Number(env.SEED ?? 1);
const fake = await FakeBinance.start(
  {
    prices: { ...DEFAULT_PRICES, ...pairs(env.PRICES) },
    ...(env.BALANCES ? { balances: pairs(env.BALANCES) } : {}),
    seed,
  },
  Number(env.PORT ?? 0),
);

const walkMs = Number(env.WALK_MS ?? 0);
if (walkMs > 0) {
  const random = seeded(seed + 7);
  const pct = dec(env.WALK_PCT ?? '0.1').div(100);
  setInterval(() => {
    for (const m of fake.book.markets.values()) {
      const step = dec(Math.round((random() * 2 - 1) * 1e6))
        .div(1e6)
        .mul(pct);
      const next = floorTo(fake.book.price(m.id).mul(step.plus(1)), m.tickSize);
      if (next.gt(0)) fake.setPrice(m.id, next.toFixed());
    }
  }, walkMs);
}

const api = `${fake.url}/api/v3`;
console.log(`fake-binance listening on ${fake.url}`);
console.log(`apiKey ${fake.apiKey}`);
console.log(`secret ${fake.secret}`);
console.log(`ccxt: new ccxt.binance(${JSON.stringify({ apiKey: fake.apiKey, secret: fake.secret, urls: { api: { public: api, private: api } }, options: FAKE_CLIENT_OPTIONS })})`);

const stop = () => {
  fake.close().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
