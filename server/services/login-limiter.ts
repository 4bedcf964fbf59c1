import type { LoginLimits } from '../config.ts';

interface Window {
  count: number;
  resetAt: number;
}

export type LimitVerdict = { ok: true } | { ok: false; reason: 'account' | 'pair' | 'ip'; minutes: number };

/**
 * Failed-login counting in fixed windows: per (account, IP), per account and per IP. A stranger who
 * guesses at an account can lock it for one window at most (15 minutes by default), and the owner's own
 * IP keeps its separate, smaller budget. In memory, bounded: one process; a scaled-out deployment moves
 * these counters into PostgreSQL.
 */
export class LoginLimiter {
  private readonly windows = new Map<string, Window>();
  private readonly limits: LoginLimits;
  private readonly now: () => number;
  constructor(limits: LoginLimits, now: () => number = Date.now) {
    this.limits = limits;
    this.now = now;
  }

  /** Whether a login for this account from this IP may be tried now. */
  check(account: string, ip: string): LimitVerdict {
    const checks: [Extract<LimitVerdict, { ok: false }>['reason'], string, number][] = [
      ['pair', `p:${account}\u0000${ip}`, this.limits.perAccountIp],
      ['account', `a:${account}`, this.limits.perAccount],
      ['ip', `i:${ip}`, this.limits.perIp],
    ];
    for (const [reason, key, max] of checks) {
      const w = this.live(key);
      if (w && w.count >= max) return { ok: false, reason, minutes: Math.max(1, Math.ceil((w.resetAt - this.now()) / 60_000)) };
    }
    return { ok: true };
  }

  /** Counts a failed attempt against all three budgets. */
  fail(account: string, ip: string): void {
    for (const key of [`p:${account}\u0000${ip}`, `a:${account}`, `i:${ip}`]) {
      const w = this.live(key);
      if (w) w.count++;
      else this.windows.set(key, { count: 1, resetAt: this.now() + this.limits.windowMs });
    }
    if (this.windows.size > 100_000) this.sweep();
  }

  /** A success clears the pair's count: the owner who finally typed it right starts afresh. */
  succeed(account: string, ip: string): void {
    this.windows.delete(`p:${account}\u0000${ip}`);
  }

  private live(key: string): Window | undefined {
    const w = this.windows.get(key);
    if (w && w.resetAt <= this.now()) {
      this.windows.delete(key);
      return undefined;
    }
    return w;
  }

  private sweep(): void {
    const now = this.now();
    for (const [key, w] of this.windows) if (w.resetAt <= now) this.windows.delete(key);
  }
}
