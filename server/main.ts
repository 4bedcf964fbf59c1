import { readConfig } from './config.ts';
import { migrate, openDatabase } from './db/connect.ts';

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
const app = await buildApp({ db, config });
await app.listen({ port: config.port, host: config.host });
console.log(`listening on http://localhost:${config.port} (ready in ${Math.round(performance.now() - started)} ms)`);

let stopping = false;
async function stop(signal: string) {
  if (stopping) return;
  stopping = true;
  console.log(`${signal}: closing`);
  await app.close();
  await db.destroy();
  process.exit(0);
}
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
