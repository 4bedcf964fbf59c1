// `node bench/login.ts`: login round trips over real loopback HTTP against the app on an in-memory
// PGlite, argon2id included. Prints {median, p95, n} in ms as JSON; the target is a median under 50 ms.
import { randomBytes } from 'node:crypto';
import { readConfig } from '../server/config.ts';
import { migrate, openDatabase } from '../server/db/connect.ts';
import { buildApp } from '../server/http/app.ts';
import { SecretBox } from '../server/security/secret-box.ts';
import { measureLogins } from './login-round-trip.ts';
import { median, percentile, round } from './stats.ts';

const n = Number(process.argv[2] ?? 200);
const db = await openDatabase();
await migrate(db);
// Hundreds of logins from one address: the per-source limit of the login call is widened here.
const defaults = readConfig({});
const config = {
  ...defaults,
  logLevel: 'silent',
  staticDir: '/nonexistent',
  rateLimits: { ...defaults.rateLimits, login: { max: 100_000, windowMs: 60_000 }, register: { max: 100_000, windowMs: 60_000 } },
};
const app = await buildApp({ db, config, box: new SecretBox(randomBytes(32)) });
const address = await app.listen({ port: 0, host: '127.0.0.1' });
try {
  await measureLogins(address, 20); // warm-up: JIT, argon2's thread pool, the database's caches
  const times = await measureLogins(address, n);
  console.log(JSON.stringify({ loginRoundTripMs: { median: round(median(times), 2), p95: round(percentile(times, 0.95), 2), n: times.length } }));
} finally {
  await app.close();
  await db.destroy();
}
