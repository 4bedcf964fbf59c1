import { readConfig } from './config.ts';
import { migrate, openDatabase } from './db/connect.ts';
import { buildApp } from './http/app.ts';

const started = performance.now();
const config = readConfig();
const db = await openDatabase(config.databaseUrl ? { url: config.databaseUrl } : { dataDir: config.dataDir });
await migrate(db);
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
