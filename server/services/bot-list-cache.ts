/**
 * The answers of the bot list, per user, kept until that user's bots change. Every write to a user's
 * bots in this process (the engine's decisions, the trader's operations) bumps the user's version, so
 * a cached page is never older than the last change; the bot screens poll the list, and most polls
 * find nothing new. A page read from the database while a change happened is not kept (the version
 * moved on), and the UTC day is part of the key (today's profit starts at 0 at midnight).
 * With several server nodes, a node would also bump on a PostgreSQL NOTIFY from the others.
 */
export class BotListCache {
  private readonly versions = new Map<string, number>();
  private readonly pages = new Map<string, unknown>();

  /** The user's bots changed: their cached pages are no longer served. */
  bump(userId: string): void {
    this.versions.set(userId, (this.versions.get(userId) ?? 0) + 1);
  }

  /** The cached answer, or a `store` that keeps the answer computed now if nothing changed meanwhile. */
  lookup(userId: string, key: string): { hit: unknown } | { store: (value: unknown) => void } {
    const version = this.versions.get(userId) ?? 0;
    const full = `${userId}|${version}|${new Date().toISOString().slice(0, 10)}|${key}`;
    if (this.pages.has(full)) return { hit: this.pages.get(full) };
    return {
      store: (value) => {
        if ((this.versions.get(userId) ?? 0) !== version) return;
        // Bounded: old versions' pages are dropped wholesale now and then rather than tracked one by one.
        if (this.pages.size > 20_000) this.pages.clear();
        this.pages.set(full, value);
      },
    };
  }
}
