// `npm start` on a fresh clone of HEAD: wall clock from the command to the first 200 on /.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Clones HEAD into a temp folder, runs `npm start` there on `port`, returns seconds until / answers. */
export async function measureFreshStart(port: number): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-clone-'));
  execFileSync('git', ['clone', '-q', process.cwd(), dir]);
  const started = performance.now();
  // The machine's npm and PATH as a user has them: the scripts bootstrap Node 24 themselves.
  const child = spawn('npm', ['start'], { cwd: dir, env: { ...process.env, PORT: String(port) }, stdio: 'ignore', detached: true });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error('npm start exited');
      try {
        if ((await fetch(`http://127.0.0.1:${port}/`)).ok) break;
      } catch {
        // still installing or building
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    return (performance.now() - started) / 1000;
  } finally {
    process.kill(-child.pid!, 'SIGTERM');
    await new Promise((r) => setTimeout(r, 500));
    rmSync(dir, { recursive: true, force: true });
  }
}
