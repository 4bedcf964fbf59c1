/**
 * The fault plan: how the fake exchange misbehaves, set and changed by the test while it runs. Each
 * rule applies to the requests it matches (by method and path; each kind has a natural default), for
 * its next `times` requests or for `forMs` of the server's clock (both unbounded unless given), then
 * lapses. Everything is counted, never random: a run repeats exactly.
 *
 * - latency: every matching answer waits `ms` first.
 * - serverError: a 5xx instead of the answer. `body: 'json'` is Binance's own -1001 in JSON (ccxt:
 *   OperationFailed), `'html'` a gateway's page (ccxt: ExchangeNotAvailable, or RequestTimeout for a
 *   504). With `processed`, the request is carried out first (an order placed) and only its answer fails,
 *   which is what Binance's documentation warns a 5xx may mean.
 * - rateLimited: 429 (or a 418 ban) with Retry-After, the request not carried out.
 * - wafBlocked: 403, the page Binance's web application firewall answers with (ccxt: ExchangeNotAvailable).
 * - timeoutAfterAccept: the request is carried out (the order is placed), then the connection is
 *   dropped (`drop`) or the answer is held back for `holdMs` (`hold`, past the client's timeout).
 * - orderNotFound: GET /api/v3/order answers -2013 "Order does not exist." for an order that exists.
 * - fillBeforeCancel: DELETE /api/v3/order finds the order filled by a trade that won the race (it
 *   fills in full at its limit, maker fee) and answers -2011 "Unknown order sent.".
 * - balanceSkew: GET /api/v3/account reports these balances instead of the books' (the books are untouched).
 */
export type Fault =
  | { kind: 'latency'; ms: number }
  | { kind: 'serverError'; status?: 500 | 502 | 503 | 504; body?: 'json' | 'html'; processed?: boolean }
  | { kind: 'rateLimited'; status?: 429 | 418; retryAfterSeconds?: number }
  | { kind: 'wafBlocked' }
  | { kind: 'timeoutAfterAccept'; mode?: 'drop' | 'hold'; holdMs?: number }
  | { kind: 'orderNotFound' }
  | { kind: 'fillBeforeCancel' }
  | { kind: 'balanceSkew'; balances: Record<string, { free: string; locked?: string }> };

export interface Match {
  method?: 'GET' | 'POST' | 'DELETE';
  /** The request path, "/api/v3/order". */
  path?: string;
}

export type FaultRule = Fault & {
  match?: Match;
  /** How many matching requests it applies to. */
  times?: number;
  /** For how long from when it is added (server clock). */
  forMs?: number;
};

type Kind = Fault['kind'];

const DEFAULT_MATCH: Partial<Record<Kind, Match>> = {
  timeoutAfterAccept: { method: 'POST', path: '/api/v3/order' },
  orderNotFound: { method: 'GET', path: '/api/v3/order' },
  fillBeforeCancel: { method: 'DELETE', path: '/api/v3/order' },
  balanceSkew: { method: 'GET', path: '/api/v3/account' },
};

interface Live {
  id: number;
  rule: FaultRule;
  left: number;
  until: number;
}

export class FaultPlan {
  private readonly rules: Live[] = [];
  private nextId = 1;
  private readonly now: () => number;

  constructor(now: () => number) {
    this.now = now;
  }

  /** Adds a rule; its id removes it. */
  add(rule: FaultRule): number {
    const id = this.nextId++;
    this.rules.push({ id, rule, left: rule.times ?? Number.POSITIVE_INFINITY, until: rule.forMs === undefined ? Number.POSITIVE_INFINITY : this.now() + rule.forMs });
    return id;
  }

  remove(id: number): void {
    const i = this.rules.findIndex((r) => r.id === id);
    if (i >= 0) this.rules.splice(i, 1);
  }

  clear(): void {
    this.rules.length = 0;
  }

  /** The rules still in force. */
  active(): FaultRule[] {
    this.prune();
    return this.rules.map((r) => r.rule);
  }

  /** The first rule of `kind` in force for this request, counted as applied once. */
  take<K extends Kind>(kind: K, method: string, path: string): Extract<Fault, { kind: K }> | undefined {
    this.prune();
    const live = this.rules.find((r) => r.rule.kind === kind && matches(r.rule.match ?? DEFAULT_MATCH[kind], method, path));
    if (!live) return undefined;
    live.left -= 1;
    this.prune();
    return live.rule as Extract<Fault, { kind: K }>;
  }

  private prune(): void {
    const now = this.now();
    for (let i = this.rules.length - 1; i >= 0; i--) {
      const r = this.rules[i]!;
      if (r.left <= 0 || now >= r.until) this.rules.splice(i, 1);
    }
  }
}

function matches(match: Match | undefined, method: string, path: string): boolean {
  return (!match?.method || match.method === method) && (!match?.path || match.path === path);
}
