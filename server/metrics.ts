import { Gauge, Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { ExchangePort } from './exchanges/port.ts';
import type { EngineObserver } from './engine/runner.ts';

let processRegistry: Registry | undefined;

/** The process's own figures (CPU, memory, event-loop lag, GC, handles): collected once per process, whatever number of apps it builds (tests). */
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/**
 * The figures `GET /metrics` shows in Prometheus's text format (prom-client) Counts,
 * durations and labels that name routes, statuses, exchanges and bot states: never a user, an id, a
 * token, a query or a path that did not match a route. The HTTP side adds the request histogram's
 * observations and the database gauges (server/http/observability.ts); the trading side counts the
 * orders it hands to a venue.
 */
export class Metrics {
  readonly registry: Registry;
  /** This process's worker id in the cluster (its bot leases), when there is one. */
  readonly workerId: string | undefined;
  readonly httpDuration: Histogram<'method' | 'route' | 'status_code'>;
  readonly ordersSent: Counter<'exchange'>;
  readonly ordersFailed: Counter<'exchange'>;
  /** What the engine reports of its rounds, queues and leases. */
  readonly engine: EngineObserver;
  /** How many live streams this process holds open (set by the app that serves them). */
  streamsOpen: () => number = () => 0;

  constructor(options: { workerId?: string } = {}) {
    this.workerId = options.workerId;
    const own = new Registry();
    this.httpDuration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP requests by method, route (the route pattern; unmatched: no route) and status, from arrival to answer',
      labelNames: ['method', 'route', 'status_code'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [own],
    });
    this.ordersSent = new Counter({ name: 'quantbot_orders_sent_total', help: 'Orders this process handed to a venue, by exchange', labelNames: ['exchange'], registers: [own] });
    this.ordersFailed = new Counter({
      name: 'quantbot_orders_failed_total',
      help: 'Of those, the orders the venue rejected or that failed on the way (outcome unknown until reconciled), by exchange',
      labelNames: ['exchange'],
      registers: [own],
    });
    const round = new Histogram({
      name: 'quantbot_engine_round_seconds',
      help: "The engine's rounds: every running bot's symbol priced once and its bots evaluated (the decisions they make are carried out after)",
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [own],
    });
    const interval = new Histogram({
      name: 'quantbot_engine_round_interval_seconds',
      help: "From one engine round's start to the next's: the tick (ENGINE_TICK_MS) while nothing holds the event loop up; longer, every bot's stop loss waited",
      buckets: [0.5, 1.1, 1.5, 2, 3, 5, 10, 30],
      registers: [own],
    });
    const queued = new Histogram({
      name: 'quantbot_engine_queue_lag_seconds',
      help: "How long a bot's event (a decision, an exchange's answer, a command, a reload) waited behind that bot's earlier ones",
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [own],
    });
    const leases = new Counter({
      name: 'quantbot_lease_changes_total',
      help: 'Bot leases this process gained (claimed at start, taken over from a dead or stopped process, handed to it) and lost (taken by another, handed over)',
      labelNames: ['change'],
      registers: [own],
    });
    for (const change of ['gained', 'lost']) leases.labels(change).inc(0);
    const reconciled = new Counter({
      name: 'quantbot_reconciliation_findings_total',
      help: 'What checking bots against their exchange accounts found: orders lost (the exchange knows no such order after three lookups), orders that never reached it (not found once their receive window passed: sent again), orphan orders cancelled, bots paused for a coin their account lacks',
      labelNames: ['found'],
      registers: [own],
    });
    for (const found of ['lost', 'unreached', 'orphan', 'short']) reconciled.labels(found).inc(0);
    const down = new Gauge({
      name: 'quantbot_accounts_out_of_reach',
      help: 'Exchange accounts whose order calls failed in a row: their bots open nothing until a reconciliation round passes',
      registers: [own],
    });
    const longest = new Gauge({
      name: 'quantbot_account_outage_longest_seconds',
      help: 'How long the oldest outage of an exchange account still out of reach has lasted (0: none)',
      registers: [own],
    });
    const outage = new Counter({
      name: 'quantbot_account_outage_seconds_total',
      help: 'Seconds exchange accounts spent out of reach, added when each outage ends (by the process that ends it: once per outage in a cluster)',
      registers: [own],
    });
    const lookups = new Counter({
      name: 'quantbot_order_lookups_total',
      help: 'Orders in flight looked up on their exchange by client order id (an answer that never came), at most 10 per account per lookup round',
      registers: [own],
    });
    const metrics = this;
    new Gauge({
      name: 'quantbot_streams_open',
      help: 'Live event streams (GET /api/stream) this process holds open: about one per open browser',
      registers: [own],
      collect() {
        this.set(metrics.streamsOpen());
      },
    });
    this.engine = {
      round: (seconds) => round.observe(seconds),
      interval: (seconds) => interval.observe(seconds),
      queued: (seconds) => queued.observe(seconds),
      leases: (change, count) => leases.labels(change).inc(count),
      reconciled: (found, count) => reconciled.labels(found).inc(count),
      accountsDown: (count, longestSeconds) => {
        down.set(count);
        longest.set(longestSeconds);
      },
      outageEnded: (seconds) => outage.inc(seconds),
      lookedUp: (count) => lookups.inc(count),
    };
    this.registry = Registry.merge([own, processMetrics()]);
  }

  /** A venue whose orders are counted (every other call passes through unchanged). */
  countOrders<P extends ExchangePort>(port: P, exchange: string): P {
    const sent = this.ordersSent.labels(exchange);
    const failed = this.ordersFailed.labels(exchange);
    return new Proxy(port, {
      get(target, property) {
        const value = Reflect.get(target, property, target) as unknown;
        if (typeof value !== 'function') return value;
        if (property !== 'placeMarketOrder') return value.bind(target);
        return async (...args: Parameters<ExchangePort['placeMarketOrder']>) => {
          sent.inc();
          try {
            const answer = await target.placeMarketOrder(...args);
            if (answer.status === 'rejected') failed.inc();
            return answer;
          } catch (e) {
            failed.inc();
            throw e;
          }
        };
      },
    });
  }
}
