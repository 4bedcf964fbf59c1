// `npm run bench:lighthouse`: only the two Lighthouse rows of the performance table (/login and the
// logged-in home), 5 cold runs each, against the built dist/ on a fresh data dir. `-- --home` or
// `-- --login` measures one page; `-- --runs=N` changes the count. Needs `npm run build` first.
import { measureServerReady, registerBenchUser } from './server-ready.ts';
import { measureLighthouse } from './lighthouse.ts';
import { loadavg } from 'node:os';

const port = 19_500 + Math.floor(Math.random() * 400);
const runs = Number(process.argv.find((a) => a.startsWith('--runs='))?.slice(7) ?? 5);
const only = process.argv.includes('--home') ? 'home' : process.argv.includes('--login') ? 'login' : 'both';
const server = await measureServerReady(port);
const base = `http://127.0.0.1:${port}`;
try {
  const load = [loadavg()[0]!.toFixed(1)];
  if (only !== 'home') console.log(JSON.stringify(await measureLighthouse(base, '/login', runs)));
  if (only !== 'login') {
    const { token, user } = await registerBenchUser(base, `lh${Date.now().toString(36)}`);
    console.log(JSON.stringify(await measureLighthouse(base, '/', runs, { token, user })));
  }
  load.push(loadavg()[0]!.toFixed(1));
  console.log(`load average at start and end: ${load.join(', ')}`);
} finally {
  await server.stop();
}
