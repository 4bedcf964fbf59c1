// `npm run bench:lantern -- [/path]`: one Lighthouse run of a page (the logged-in home by default) and
// the timeline Lighthouse simulated for its largest paint (slow 4G, 4x CPU): when each request and main
// thread task starts and ends. Lighthouse scores a page by that simulation, not by what it observed, so
// this is how to see what its figure is made of. What it showed: HTTP/1.1 gives six
// connections, every request in flight takes an equal share of the bandwidth for its whole life (a 1 kB
// file waiting on its round trip slows the 87 kB framework as much as another large file would), and
// every file fetched before the observed largest paint counts, the manifest and the favicon too.
// Needs `npm run build` first.
import { Simulation } from '../node_modules/lighthouse/core/lib/lantern/lantern.js';
import { measureServerReady, registerBenchUser } from './server-ready.ts';
import { measureLighthouse } from './lighthouse.ts';

const path = process.argv[2] ?? '/';
const port = 19_900 + Math.floor(Math.random() * 90);
const server = await measureServerReady(port);
const base = `http://127.0.0.1:${port}`;
try {
  const login = path === '/login' || path.startsWith('/register') ? undefined : await registerBenchUser(base, `lt${Date.now().toString(36)}`);
  console.log(JSON.stringify(await measureLighthouse(base, path, 1, login)));
  for (const [label, timings] of Simulation.Simulator.allNodeTimings) {
    if (label === 'pessimisticTotalBlockingTime') {
      // The main thread's long tasks (50 ms and more, simulated): what the blocking time is made of.
      console.log('\nlong main thread tasks (TBT counts each one past 50 ms):');
      for (const [node, t] of timings.entries()) {
        const ms = t.endTime - t.startTime;
        if (node.type !== 'cpu' || ms < 50) continue;
        const scripts = node.getEvaluateScriptURLs();
        const kinds = new Map<string, number>();
        for (const e of node.childEvents) kinds.set(e.name, (kinds.get(e.name) ?? 0) + (e.dur ?? 0) / 1000);
        const top = [...kinds]
          .sort((a, b) => b[1] - a[1])
          .slice(0, 4)
          .map(([k, v]) => `${k} ${v.toFixed(1)}`);
        console.log(`${String(Math.round(t.startTime)).padStart(5)} ${String(Math.round(ms)).padStart(5)} ms  ${[...scripts].map((u) => u.replace(base, '')).join(' ')} [observed: ${top.join(', ')}]`);
      }
    }
    if (!label.endsWith('LargestContentfulPaint')) continue;
    const rows = [...timings.entries()]
      .map(([node, t]) => ({
        start: Math.round(t.startTime),
        end: Math.round(t.endTime),
        what: node.type === 'network' ? `${node.request.url.replace(base, '')} ${node.request.transferSize} B` : `main thread (${Math.round(t.endTime - t.startTime)} ms)`,
      }))
      .sort((a, b) => a.start - b.start);
    console.log(`\n${label}: ${Math.max(...rows.map((r) => r.end))} ms`);
    for (const r of rows) console.log(`${String(r.start).padStart(5)} ${String(r.end).padStart(5)}  ${r.what}`);
  }
} finally {
  await server.stop();
}
