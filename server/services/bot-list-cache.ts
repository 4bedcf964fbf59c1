/**
 * The answers of the bot list, per user, kept until that user's bots change. Every write to a user's
 * bots in this process (the engine's decisions, the trader's operations) bumps the user's version, so
 * a cached page is never older than the last change; the bot screens poll the list, and most polls
 * find nothing new. A page read from the database while a change happened is not kept (the version
 * moved on), and the UTC day is part of the key (today's profit starts at 0 at midnight).
 * With several server processes on PostgreSQL, `publish` tells the others of each bump
 * (pg_notify, after the change committed) and they `bumpFromPeer`; a page one of them read before the
 * commit and stored before the notification arrived is dropped by that bump, since pages are kept
 * per version. When notifications may have been missed (the listening connection dropped), `clear()`.
 */
export class BotListCache {
  private readonly versions = new Map<string, number>();
  private readonly pages = new Map<string, unknown>();
  /** Bumped by clear(): a page computed across a clear is not kept. */
  private generation = 0;
  /** Set on PostgreSQL by server/main.ts: tells the other processes that a user's bots changed. */
  publish: ((userId: string) => void) | undefined;

  /** The user's bots changed: their cached pages are no longer served, here and on the other processes. */
  bump(userId: string): void {
    this.bumpFromPeer(userId);
    this.publish?.(userId);
  }

  /** Another process changed the user's bots. */
  bumpFromPeer(userId: string): void {
    this.versions.set(userId, (this.versions.get(userId) ?? 0) + 1);
  }

  /** Every page dropped; a page being computed now is not stored either (it may predate what was missed). */
  clear(): void {
    this.generation++;
    this.pages.clear();
  }

  /** The cached answer, or a `store` that keeps the answer computed now if nothing changed meanwhile. */
  lookup(userId: string, key: string): { hit: unknown } | { store: (value: unknown) => void } {
    const version = this.versions.get(userId) ?? 0;
    const generation = this.generation;
    const full = `${userId}|${version}|${new Date().toISOString().slice(0, 10)}|${key}`;
    if (this.pages.has(full)) return { hit: this.pages.get(full) };
    return {
      store: (value) => {
        if ((this.versions.get(userId) ?? 0) !== version || this.generation !== generation) return;
        // Bounded: old versions' pages are dropped wholesale now and then rather than tracked one by one.
        if (this.pages.size > 20_000) this.pages.clear();
        this.pages.set(full, value);
      },
    };
  }
}
