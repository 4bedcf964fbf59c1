/**
 * Single-order lookups (an order whose answer never came, a lost one asked about again) cost an exchange
 * account its rate limit: a thousand orders in flight after an outage must not spend it in one round and
 * leave the account's bots unable to trade. So each lookup round asks at most LOOKUPS_PER_ACCOUNT orders
 * of an account, and the next round asks the next ones: every order is reached within
 * ceil(orders / LOOKUPS_PER_ACCOUNT) lookup rounds.
 */

/** Single-order lookups one exchange account is asked per lookup round. */
export const LOOKUPS_PER_ACCOUNT = 10;

/**
 * The candidates a lookup round asks: per account, `cap` of them, starting where round `turn` reaches in
 * its list (wrapping), so that consecutive rounds walk every account's whole list.
 */
export function takeLookups<T>(candidates: readonly T[], accountOf: (candidate: T) => string, turn: number, cap = LOOKUPS_PER_ACCOUNT): T[] {
  const byAccount = new Map<string, T[]>();
  for (const candidate of candidates) {
    const key = accountOf(candidate);
    const list = byAccount.get(key);
    if (list) list.push(candidate);
    else byAccount.set(key, [candidate]);
  }
  const taken: T[] = [];
  for (const list of byAccount.values()) {
    if (list.length <= cap) {
      taken.push(...list);
      continue;
    }
    const start = (turn * cap) % list.length;
    for (let i = 0; i < cap; i++) taken.push(list[(start + i) % list.length]!);
  }
  return taken;
}
