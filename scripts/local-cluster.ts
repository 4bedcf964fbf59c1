// `npm run cluster`: a local cluster of 3 server processes on this machine's PostgreSQL,
// for trying many processes by hand: one database (CLUSTER_DATABASE_URL, default
// postgres://postgres@127.0.0.1:5432/quantbot_cluster, created if missing), one SECRET_KEY for all
// (kept in .cluster/secret.key), ports 8081-8083 (CLUSTER_PORT for the first). Ctrl-C stops all three
// with SIGTERM (each hands its bots and duties over as it leaves). Needs a build: `npm run build`.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

const url = process.env.CLUSTER_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/quantbot_cluster';
const first = Number(process.env.CLUSTER_PORT ?? 8081);
const count = Number(process.env.CLUSTER_SIZE ?? 3);

if (!existsSync('dist/index.html')) {
  console.error('dist/ is missing: run `npm run build` first');
  process.exit(1);
}
// The database, created on the first run.
const target = new URL(url);
const name = target.pathname.slice(1);
const admin = new pg.Client({ connectionString: Object.assign(new URL(url), { pathname: '/postgres' }).toString() });
await admin.connect();
if ((await admin.query('select 1 from pg_database where datname = $1', [name])).rowCount === 0) await admin.query(`create database "${name.replace(/"/g, '')}"`);
await admin.end();
// One key for every process: client order ids and the secrets at rest must be the same everywhere.
mkdirSync('.cluster', { recursive: true });
const keyFile = join('.cluster', 'secret.key');
if (!existsSync(keyFile)) writeFileSync(keyFile, randomBytes(32).toString('base64'), { mode: 0o600 });
const secret = readFileSync(keyFile, 'utf8').trim();

const children: ChildProcess[] = [];
for (let i = 0; i < count; i++) {
  const port = first + i;
  const child = spawn(process.execPath, ['server/main.ts'], {
    env: { ...process.env, PORT: String(port), DATABASE_URL: url, SECRET_KEY: secret, DATA_DIR: join(tmpdir(), `quantbot-cluster-${port}`) },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  children.push(child);
  console.log(`process ${i + 1}: http://localhost:${port} (pid ${child.pid})`);
}
let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  for (const c of children) c.kill('SIGTERM');
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
await Promise.all(children.map((c) => new Promise((r) => c.on('exit', r))));
