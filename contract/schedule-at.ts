import type { DcaParamsInput } from './bots.ts';

// Kept apart from bots.ts, whose schemas import zod: the rank screen reads this and must not load a schema library.
export type Schedule = Extract<DcaParamsInput['start'], { kind: 'schedule' }>;

/**
 * A DCA schedule told at another UTC offset (minutes east of UTC), the same moments: the strategy rank
 * shows a shared schedule in UTC (offset 0), so the owner's time zone is not shown, and a copy tells it
 * in the copier's own. A weekly schedule's ISO weekday (1 Monday .. 7 Sunday) moves with a day crossed.
 */
export function scheduleAt(start: Schedule, utcOffset: number): Schedule {
  const [h, m] = start.time.split(':').map(Number);
  const minutes = (h ?? 0) * 60 + (m ?? 0) - start.utcOffset + utcOffset;
  const day = Math.floor(minutes / 1440);
  const inDay = minutes - day * 1440;
  const time = `${String(Math.floor(inDay / 60)).padStart(2, '0')}:${String(inDay % 60).padStart(2, '0')}`;
  const moved: Schedule = { kind: 'schedule', every: start.every, time, utcOffset };
  if (start.weekday !== undefined) moved.weekday = ((((start.weekday - 1 + day) % 7) + 7) % 7) + 1;
  return moved;
}
