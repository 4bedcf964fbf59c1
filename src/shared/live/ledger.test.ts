import { describe, expect, it } from 'vitest';
import type { CallName } from '../../../contract/calls.ts';
import { liveChanges, type StreamedEvent } from '../../../contract/live.ts';
import { Code } from '../../../contract/codes.ts';
import { Ledger } from './ledger.ts';
import { VALIDATION_ERROR } from './live.ts';

const botEvent = (id: string): StreamedEvent => ({ kind: 'bot', bot: '12', status: 'paused', id, at: '2026-01-01T00:00:00Z' });
const noticeEvent = (id: string): StreamedEvent => ({ kind: 'notice', notice: '3', level: 'warning', code: 'x', id, at: '2026-01-01T00:00:00Z' });

/** A ledger on a memory storage whose coalesced refreshes run when the test says. */
function setup(stored?: string) {
  const storage = new Map<string, string>(stored ? [['live:u', stored]] : []);
  const refreshed: Array<ReadonlySet<CallName> | 'all'> = [];
  let due: (() => void) | undefined;
  const ledger = new Ledger({
    storage: { getItem: (k) => storage.get(k) ?? null, setItem: (k, v) => void storage.set(k, v) },
    key: 'live:u',
    refresh: (names) => refreshed.push(names === 'all' ? 'all' : new Set(names)),
    schedule: (run) => {
      due = run;
    },
  });
  const flush = () => {
    const run = due;
    due = undefined;
    run?.();
  };
  return { ledger, storage, refreshed, flush };
}

describe('applying live events by id', () => {
  it('applies each id once: a replayed or relayed duplicate, or an older id, is ignored', () => {
    const { ledger } = setup();
    expect(ledger.apply(botEvent('5'))).toBe(true);
    expect(ledger.apply(botEvent('5'))).toBe(false);
    expect(ledger.apply(botEvent('4'))).toBe(false);
    expect(ledger.apply(botEvent('6'))).toBe(true);
    expect(ledger.last).toBe('6');
  });

  it('compares ids as 64-bit numbers, not as text or doubles', () => {
    const { ledger } = setup('9');
    expect(ledger.apply(botEvent('10'))).toBe(true);
    expect(ledger.apply(botEvent('9007199254740993'))).toBe(true);
    expect(ledger.apply(botEvent('9007199254740992'))).toBe(false);
    expect(ledger.last).toBe('9007199254740993');
  });

  it('resumes from the id kept for the user, and keeps each new one there', () => {
    const { ledger, storage } = setup('41');
    expect(ledger.last).toBe('41');
    expect(ledger.apply(botEvent('41'))).toBe(false);
    ledger.apply(botEvent('42'));
    expect(storage.get('live:u')).toBe('42');
    ledger.advance('50'); // a ready after a first connect: the stream's head
    expect(storage.get('live:u')).toBe('50');
    ledger.advance('45'); // never backwards
    expect(ledger.last).toBe('50');
    ledger.forget();
    expect(ledger.last).toBe('');
  });

  it("refreshes the union of a burst's calls in one pass", () => {
    const { ledger, refreshed, flush } = setup();
    ledger.apply(botEvent('1'));
    ledger.apply(botEvent('2'));
    ledger.apply(noticeEvent('3'));
    expect(refreshed).toEqual([]);
    flush();
    expect(refreshed).toEqual([new Set([...liveChanges.bot, ...liveChanges.notice])]);
    flush();
    expect(refreshed).toHaveLength(1);
  });

  it('ignores what is not an event of a known kind', () => {
    const { ledger, refreshed, flush } = setup();
    expect(ledger.apply({ ...botEvent('1'), kind: 'unknown' } as unknown as StreamedEvent)).toBe(false);
    expect(ledger.apply({ ...botEvent('x') })).toBe(false);
    flush();
    expect(refreshed).toEqual([]);
  });

  it('on a reset refreshes every query and goes on from the reset id', () => {
    const { ledger, refreshed, flush } = setup('3');
    ledger.apply(botEvent('4'));
    ledger.reset('900');
    flush();
    expect(refreshed).toEqual(['all']);
    expect(ledger.last).toBe('900');
    expect(ledger.apply(botEvent('899'))).toBe(false);
    expect(ledger.apply(botEvent('901'))).toBe(true);
  });

  it('knows the code of a refused Last-Event-ID', () => {
    expect(VALIDATION_ERROR).toBe(Code.ValidationError);
  });
});
