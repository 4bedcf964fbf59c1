import type { LoginLimits } from '../config.ts';

interface Counter {
  count: number;
  /** When the count starts again from zero. */
  resetAt: number;
  /** Set when the limit is reached: attempts are refused until then. */
  lockedUntil: number;
}

export type LimitReason = 'account' | 'pair' | 'ip';
export type LimitVerdict = { ok: true } | { ok: false; reason: LimitReason; minutes: number };

/**
 * Failed-login counting per (account, IP), per account and per IP. Reaching a limit within the window
 * locks that key for one full window from that moment; refused attempts are not counted, so a stranger
 * guessing at an account can lock it for one window at most before having to start over, and the owner's
 * own IP keeps its separate, smaller budget.
 *
 * Kept in memory, bounded (the oldest counters are dropped beyond `maxEntries`): right for one process.
 * Several API nodes would need these counters in PostgreSQL (a login_attempts table), or each node
 * would grant its own budget.
 */
export class LoginLimiter {
  private readonly counters = new Map<string, Counter>();
  private readonly limits: LoginLimits;
  private readonly now: () => number;
  private readonly maxEntries: number;
  constructor(limits: LoginLimits, now: () => number = Date.now, maxEntries = 100_000) {
    this.limits = limits;
    this.now = now;
    this.maxEntries = maxEntries;
  }

  private keys(account: string, ip: string): [LimitReason, string, number][] {
    return [
      ['pair', `p:${account}\u0000${ip}`, this.limits.perAccountIp],
      ['account', `a:${account}`, this.limits.perAccount],
      ['ip', `i:${ip}`, this.limits.perIp],
    ];
  }

  /** Whether a login for this account from this IP may be tried now; if not, why and for how many minutes. */
  check(account: string, ip: string): LimitVerdict {
    const now = this.now();
    for (const [reason, key] of this.keys(account, ip)) {
      const c = this.live(key, now);
      if (c && c.lockedUntil > now) return { ok: false, reason, minutes: Math.max(1, Math.ceil((c.lockedUntil - now) / 60_000)) };
    }
    return { ok: true };
  }

  /** Counts a failed attempt against all three budgets. */
  fail(account: string, ip: string): void {
    const now = this.now();
    for (const [, key, max] of this.keys(account, ip)) {
      let c = this.live(key, now);
      if (!c) {
        c = { count: 0, resetAt: now + this.limits.windowMs, lockedUntil: 0 };
        this.counters.set(key, c);
      }
      c.count++;
      if (c.count >= max) {
        c.lockedUntil = now + this.limits.windowMs;
        c.resetAt = c.lockedUntil;
      }
    }
    if (this.counters.size > this.maxEntries) this.shrink(now);
  }

  /** A success clears the pair's count: the owner who finally typed it right starts afresh. */
  succeed(account: string, ip: string): void {
    this.counters.delete(`p:${account}\u0000${ip}`);
  }

  /** How many counters are held (for tests of the memory bound). */
  get size(): number {
    return this.counters.size;
  }

  private live(key: string, now: number): Counter | undefined {
    const c = this.counters.get(key);
    if (c && c.resetAt <= now) {
      this.counters.delete(key);
      return undefined;
    }
    return c;
  }

  private shrink(now: number): void {
    for (const [key, c] of this.counters) if (c.resetAt <= now) this.counters.delete(key);
    // Still too many live counters (a flood from many IPs): forget the oldest; memory beats precision.
    for (const key of this.counters.keys()) {
      if (this.counters.size <= this.maxEntries * 0.9) break;
      this.counters.delete(key);
    }
  }
}
