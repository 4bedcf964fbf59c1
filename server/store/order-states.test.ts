import { describe, expect, it } from 'vitest';
import { canStep, isFinal, orderPhases, orderSteps } from './order-states.ts';

describe('the order state machine', () => {
  it('allows exactly the steps of its table, and nothing out of an ended order', () => {
    const allowed: string[] = [];
    for (const from of orderPhases) for (const to of orderPhases) if (canStep(from, to)) allowed.push(`${from}>${to}`);
    // All 100 pairs walked: these 30 steps and no other.
    expect(allowed.sort()).toEqual(
      [
        'new>submitted',
        'new>rejected',
        ...['new', 'open', 'partially_filled', 'filled', 'cancelled', 'rejected', 'expired', 'lost'].map((to) => `submitted>${to}`),
        ...['partially_filled', 'filled', 'pending_cancel', 'cancelled', 'expired', 'lost'].map((to) => `open>${to}`),
        ...['filled', 'pending_cancel', 'cancelled', 'expired', 'lost'].map((to) => `partially_filled>${to}`),
        ...['cancelled', 'filled', 'lost'].map((to) => `pending_cancel>${to}`),
        ...['open', 'partially_filled', 'filled', 'cancelled', 'rejected', 'expired'].map((to) => `lost>${to}`),
      ].sort(),
    );
    expect(orderPhases.filter(isFinal)).toEqual(['filled', 'cancelled', 'rejected', 'expired']);
    // The paths an order takes in the engine.
    const walk = (...path: (typeof orderPhases)[number][]) => path.every((to, i) => i === 0 || canStep(path[i - 1]!, to));
    expect(walk('new', 'submitted', 'filled')).toBe(true);
    expect(walk('new', 'submitted', 'open', 'partially_filled', 'filled')).toBe(true);
    expect(walk('new', 'submitted', 'open', 'pending_cancel', 'filled')).toBe(true);
    expect(walk('new', 'submitted', 'lost', 'filled')).toBe(true);
    // Back to new only from submitted (it never reached the venue: its receive window passed unseen), never
    // once the venue has it; never back from an end, never filled before it was sent.
    expect(walk('new', 'submitted', 'new', 'submitted', 'filled')).toBe(true);
    expect(['open', 'partially_filled', 'pending_cancel', 'lost'].filter((from) => canStep(from as 'open', 'new'))).toEqual([]);
    expect(canStep('filled', 'open')).toBe(false);
    expect(canStep('new', 'filled')).toBe(false);
    expect(canStep('cancelled', 'filled')).toBe(false);
    // Every phase can be reached.
    const reached = new Set(orderPhases.flatMap((p) => orderSteps[p]));
    expect(orderPhases.filter((p) => !reached.has(p))).toEqual([]);
  });
});
