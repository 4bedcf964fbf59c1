import { describe, expect, it } from 'vitest';
import { money } from '../../strategy/money.ts';
import type { RestingOrder } from '../../strategy/resting.ts';
import { type KnownOrder, planResting } from './resting-plan.ts';

const want = (slot: string, side: 'buy' | 'sell', price: string, amount: string): RestingOrder => ({
  slot,
  side,
  price: money(price),
  amount: money(amount),
  reason: side === 'buy' ? 'add' : 'close',
});
let n = 0;
const known = (slot: string, side: 'buy' | 'sell', price: string, amount: string, status: KnownOrder['status'], filled = '0'): KnownOrder => ({
  clientOrderId: `7-1-${++n}`,
  slot,
  side,
  price: money(price),
  amount: money(amount),
  filled: money(filled),
  status,
});
const ids = (orders: { clientOrderId: string }[]) => orders.map((o) => o.clientOrderId);

describe('a plan of resting orders', () => {
  it('places what is wanted where nothing rests, and keeps what rests as wanted', () => {
    const wanted = [want('L0', 'buy', '100', '0.1'), want('L2', 'sell', '120', '0.1')];
    expect(planResting(wanted, [])).toEqual({ cancel: [], place: wanted, waiting: [] });
    const resting = [known('L0', 'buy', '100', '0.1', 'open'), known('L2', 'sell', '120', '0.1', 'submitted')];
    expect(planResting(wanted, resting)).toEqual({ cancel: [], place: [], waiting: [] });
    // Ended orders are history: their slots get new ones.
    const ended = [known('L0', 'buy', '100', '0.1', 'filled'), known('L2', 'sell', '120', '0.1', 'cancelled')];
    expect(planResting(wanted, ended).place).toEqual(wanted);
  });

  it('moves an order by cancel, then replace: the replacement waits for the cancel to be confirmed', () => {
    const old = known('L1', 'sell', '110', '0.1', 'open');
    const moved = [want('L1', 'sell', '111', '0.1')];
    expect(planResting(moved, [old])).toEqual({ cancel: [old], place: [], waiting: ['L1'] });
    // The cancel on its way: nothing sent again, nothing placed beside it.
    expect(planResting(moved, [{ ...old, status: 'pending_cancel' }])).toEqual({ cancel: [], place: [], waiting: ['L1'] });
    // Confirmed: the new order goes.
    expect(planResting(moved, [{ ...old, status: 'cancelled' }])).toEqual({ cancel: [], place: moved, waiting: [] });
    // Another amount or side is another order too.
    expect(ids(planResting([want('L1', 'sell', '110', '0.2')], [old]).cancel)).toEqual([old.clientOrderId]);
    expect(ids(planResting([want('L1', 'buy', '110', '0.1')], [old]).cancel)).toEqual([old.clientOrderId]);
  });

  it('cancels what rests where nothing is wanted', () => {
    const a = known('L3', 'buy', '90', '0.1', 'open');
    const b = known('L4', 'buy', '80', '0.1', 'partially_filled', '0.04');
    expect(planResting([], [a, b])).toEqual({ cancel: [a, b], place: [], waiting: [] });
  });

  it('cancels a partly filled order, whatever the books want there: its part is booked when the cancel answers', () => {
    const part = known('L0', 'buy', '100', '0.1', 'partially_filled', '0.03');
    expect(planResting([want('L0', 'buy', '100', '0.1')], [part])).toEqual({ cancel: [part], place: [], waiting: ['L0'] });
    expect(planResting([want('L0', 'buy', '100', '0.07')], [part])).toEqual({ cancel: [part], place: [], waiting: ['L0'] });
  });

  it('never cancels or stands beside an order whose outcome is unknown or that is lost', () => {
    for (const status of ['new', 'submitted', 'lost'] as const) {
      const unknown = known('L0', 'buy', '100', '0.1', status);
      expect(planResting([want('L0', 'buy', '99', '0.1')], [unknown]), status).toEqual({ cancel: [], place: [], waiting: ['L0'] });
      expect(planResting([], [unknown]).cancel, status).toEqual([]);
    }
  });

  it('keeps the one order of a slot that fits and cancels the others there', () => {
    const fit = known('L0', 'buy', '100', '0.1', 'open');
    const extra = known('L0', 'buy', '100', '0.1', 'open');
    const stale = known('L0', 'buy', '98', '0.1', 'open');
    expect(planResting([want('L0', 'buy', '100', '0.1')], [stale, fit, extra])).toEqual({ cancel: [stale, extra], place: [], waiting: [] });
  });
});
