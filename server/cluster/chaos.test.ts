import { describe, expect, it } from 'vitest';
import { PG_URL } from '../test-support.ts';
import { runChaos } from './chaos-run.ts';

/**
 * The chaos test of issue 15 §6, small enough for `npm test` on a loaded 2-core machine (the full size,
 * 60 bots and 20 kills, is `npm run bench:chaos`): 3 server processes on a fresh PostgreSQL database,
 * 12 martin bots of 6 traders on Paper (MARKET_SPEED=300, LEASE_TTL_MS=3000), 4 SIGKILLs with a
 * restart, one SIGSTOP for TTL + 2 s, one SIGTERM with a restart, a pause and a stop meanwhile.
 * Paper records every order with its sender's worker and epoch (TEST_VENUE_AUDIT=1).
 */
describe('a cluster in chaos', () => {
  it('sends no order twice nor under a lost lease, none after a pause or stop, takes every bot over within 12 s, and keeps the books', { timeout: 240_000 }, async () => {
    const r = await runChaos({ adminUrl: PG_URL, traders: 6, martinPerTrader: 2, gridPerTrader: 0, kills: 4, stops: 1, ttlMs: 3000, takeoverWaitMs: 15_000 });
    const max = Math.max(...r.takeoverMs);
    console.log(
      `chaos: ${r.bots} bots, ${r.events.map((e) => `${e.kind}(${e.orphans})`).join(' ')}, ${r.orders} orders (${r.calls} calls, ${r.repeats.length} repeats), takeover max ${max} ms (lease max ${Math.max(...r.leaseMs)} ms), ${r.wallMs} ms`,
    );
    // A process SIGSTOPped inside a send (between its last lease check and Paper's commit: several
    // round trips on Paper) sends it when woken; Paper refuses the id it already has. That window
    // cannot be fenced from the sender's side; it showed once in 8 runs and is printed, not failed.
    // Any other id from two senders fails.
    const stopped = new Set(r.events.filter((e) => e.kind === 'stop').map((e) => e.worker));
    const paused = r.duplicates.filter((d) => d.workers.some((w) => stopped.has(w)));
    if (paused.length > 0) console.log(`ids repeated by a process paused inside a send:\n${paused.map((d) => d.text).join('\n')}`);
    expect(
      r.duplicates.filter((d) => !paused.includes(d)).map((d) => d.text),
      'client order ids sent by two workers or epochs',
    ).toEqual([]);
    expect(r.stale, 'orders accepted under an epoch older than the lease').toEqual([]);
    expect(r.afterCommand, 'orders after a pause or stop').toEqual([]);
    expect([...r.untaken, ...r.idle], 'bots of a lost process that did not trade again').toEqual([]);
    expect(max, 'takeover: from the loss of a process to the next order of each of its bots').toBeLessThanOrEqual(12_000);
    expect(r.conflicts, 'order-id conflicts in the logs').toEqual([]);
    expect(r.books, 'the books').toEqual([]);
    expect(r.events.filter((e) => e.kind === 'kill').length).toBe(4);
    expect(r.orders).toBeGreaterThan(r.bots * 3);
  });
});
