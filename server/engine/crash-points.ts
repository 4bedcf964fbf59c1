/**
 * Named places in the engine's order path where the crash test (server/cluster/live-crash.test.ts) kills
 * this process with SIGKILL, so that it proves recovery from each of them on purpose rather than by the
 * luck of a random kill: `TEST_CRASH_AT=recorded:2` kills the process the second time it passes
 * `recorded`. Unset (the product), every point is a no-op.
 * - `recorded`: a decision committed (its order stored `new`), the order not sent yet.
 * - `sent`: the exchange answered the order, the answer not recorded yet.
 * - `found`: a lookup found an order's outcome (a fill), not recorded yet.
 * - `cancel`: a cancel on its way to the exchange, its answer not back yet.
 */
export type CrashPoint = 'recorded' | 'sent' | 'found' | 'cancel';

const plan = parse(process.env.TEST_CRASH_AT);
let passes = 0;

function parse(value: string | undefined): { point: CrashPoint; at: number } | null {
  const m = /^(recorded|sent|found|cancel):(\d+)$/.exec(value ?? '');
  return m ? { point: m[1] as CrashPoint, at: Number(m[2]) } : null;
}

/**
 * Passes a crash point: at the planned pass this process dies at once, or `afterMs` later (a call on its
 * way: the kill lands while the exchange has it).
 */
export function crashPoint(point: CrashPoint, afterMs = 0): void {
  if (plan?.point !== point || ++passes !== plan.at) return;
  const kill = () => process.kill(process.pid, 'SIGKILL');
  if (afterMs > 0) setTimeout(kill, afterMs);
  else kill();
}
