/** The waits between reconnects: quick after a blip, then ever longer, at most 30 s. */
export const BACKOFF_STEPS_MS = [1_000, 2_000, 5_000, 10_000, 30_000] as const;
/** Each wait is moved by up to this share either way, so a server restart is not met by every browser at once. */
export const BACKOFF_JITTER = 0.2;

/** How long to wait before reconnect number `attempt` (0 = the first after a drop). */
export function backoffDelay(attempt: number, random: () => number = Math.random): number {
  const base = BACKOFF_STEPS_MS[Math.min(Math.max(attempt, 0), BACKOFF_STEPS_MS.length - 1)]!;
  return Math.round(base * (1 + BACKOFF_JITTER * (2 * random() - 1)));
}
