import { readConfig } from './config.ts';
import { join } from 'node:path';
import { migrate, openDatabase } from './db/connect.ts';
import { pruneSessions } from './services/sessions.ts';
import { SecretBox, loadSecretKey } from './security/secret-box.ts';

const started = performance.now();
const config = readConfig();
// The embedded database takes most of the start-up (~3 s cold): start it first, and load the HTTP
// side (Fastify, zod, the routes) while it boots.
const dbReady = openDatabase(config.databaseUrl ? { url: config.databaseUrl } : { dataDir: config.dataDir }).then(async (db) => {
  await migrate(db);
  return db;
});
const { buildApp } = await import('./http/app.ts');
const db = await dbReady;
const box = new SecretBox(loadSecretKey(config.secretKey, join(config.dataDir, 'secret.key')));
const app = await buildApp({ db, config, box });
await app.listen({ port: config.port, host: config.host });
console.log(`listening on http://localhost:${config.port} (ready in ${Math.round(performance.now() - started)} ms)`);
// Dead sessions can never be used again; clearing them after the start keeps the start fast.
pruneSessions(db).catch((e: unknown) => app.log.warn({ err: { message: String((e as Error)?.message ?? e) } }, 'session pruning failed'));

let stopping = false;
async function stop(signal: string) {
  if (stopping) return;
  stopping = true;
  console.log(`${signal}: closing`);
  // Open keep-alive connections or a stuck query must not keep the process alive forever.
  setTimeout(() => process.exit(1), 10_000).unref();
  await app.close();
  await db.destroy();
  process.exit(0);
}
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
