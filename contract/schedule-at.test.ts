import { describe, expect, it } from 'vitest';
import { scheduleAt } from './schedule-at.ts';

describe('a DCA schedule told at another UTC offset', () => {
  it('keeps the same moments, moving the weekday across midnight', () => {
    // Monday 01:30 in UTC+8 is Sunday 17:30 UTC, and Monday 02:30 in UTC+9.
    const monday = { kind: 'schedule', every: 'week', weekday: 1, time: '01:30', utcOffset: 480 } as const;
    expect(scheduleAt(monday, 0)).toEqual({ kind: 'schedule', every: 'week', weekday: 7, time: '17:30', utcOffset: 0 });
    expect(scheduleAt(scheduleAt(monday, 0), 540)).toEqual({ ...monday, time: '02:30', utcOffset: 540 });
    // Sunday 22:00 UTC is Monday 03:30 in UTC+5:30; 23:15 UTC is 18:15 the same day in UTC-5.
    expect(scheduleAt({ kind: 'schedule', every: 'week', weekday: 7, time: '22:00', utcOffset: 0 }, 330)).toMatchObject({ weekday: 1, time: '03:30' });
    expect(scheduleAt({ kind: 'schedule', every: 'day', time: '23:15', utcOffset: 0 }, -300)).toEqual({ kind: 'schedule', every: 'day', time: '18:15', utcOffset: -300 });
  });
});
