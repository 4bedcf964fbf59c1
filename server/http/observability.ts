import type { FastifyInstance } from 'fastify';
import { Gauge } from 'prom-client';
import { sql } from 'kysely';
import type { Db } from '../db/connect.ts';
import { migrations } from '../db/migrations.ts';
import { languageOf, type Translate } from '../i18n.ts';
import type { Metrics } from '../metrics.ts';
import { errorEnvelope } from './envelope.ts';
import { countBotsByStatus } from '../store/bot-lists.ts';

/** The probes answer at once, also while the database starts (the /api hook that waits for it lets them by). */
export const PROBES = new Set(['/api/health', '/api/ready']);

/** The newest migration this build knows: the database is ready when it has been applied. */
const LATEST_MIGRATION = Object.keys(migrations).sort().at(-1)!;
/** A database slower than this to answer a probe counts as unreachable. */
const PROBE_TIMEOUT_MS = 2000;

export interface ObservabilityDeps {
  db: Db;
  metrics: Metrics;
  translate: Translate;
  /** Resolves when the start-up (database, migrations, key check) is done. */
  ready?: Promise<unknown> | undefined;
  /** Why the trading engine is not trading as it should (fenced, its loops late), or undefined. */
  engineProblem?: (() => string | undefined) | undefined;
}

function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/**
 * , for load balancers, orchestrators and Prometheus:
 *  - `GET /api/health`: the process is alive (never touches the database);
 *  - `GET /api/ready`: the start-up is done, the database answers and has this build's migrations,
 *    and the engine's loops run (its round and, in a cluster, its ownership round and heartbeat);
 *    else HTTP 503 with the envelope (5004) and the reason in the log;
 *  - `GET /metrics`: Prometheus's text format: request latency by route and status, bots by status
 *    and those this process owns (from the database when scraped), orders sent and failed, the
 *    process's own figures. No user data: no ids, accounts, tokens, queries or unmatched paths.
 * None of them is rate-limited or waits for the database's start.
 */
export function registerObservability(app: FastifyInstance, deps: ObservabilityDeps): void {
  const { db, metrics } = deps;
  let started = !deps.ready;
  let failed: string | undefined;
  deps.ready?.then(
    () => (started = true),
    (e: unknown) => (failed = String((e as Error)?.message ?? e)),
  );

  app.addHook('onResponse', async (request, reply) => {
    metrics.httpDuration.observe({ method: request.method, route: request.routeOptions.url ?? 'unmatched', status_code: String(reply.statusCode) }, reply.elapsedTime / 1000);
  });

  new Gauge({
    name: 'quantbot_bots',
    help: 'Bots (not deleted) by status, in the whole database',
    labelNames: ['status'],
    registers: [metrics.registry],
    async collect() {
      if (!started) return;
      const rows = await within(countBotsByStatus(db), PROBE_TIMEOUT_MS).catch(() => undefined);
      this.reset();
      if (!rows) return; // the database did not answer: no figure rather than a wrong one
      for (const status of ['running', 'paused', 'stopped']) this.set({ status }, 0);
      for (const row of rows) this.set({ status: row.status }, Number(row.n));
    },
  });
  if (metrics.workerId) {
    const workerId = metrics.workerId;
    new Gauge({
      name: 'quantbot_bots_owned',
      help: 'Bots this process holds the lease of (it trades them)',
      registers: [metrics.registry],
      async collect() {
        if (!started) return;
        const { rows } = await within(sql<{ n: string }>`select count(*) as n from bot_leases where worker_id = ${workerId}`.execute(db), PROBE_TIMEOUT_MS).catch(() => ({
          rows: [] as { n: string }[],
        }));
        if (rows[0]) this.set(Number(rows[0].n));
      },
    });
  }

  // For load balancers and uptime checks: answers without touching the database.
  app.get('/api/health', async () => ({ code: 1, msg: 'ok', data: { status: 'ok' } }));

  app.get('/api/ready', async (request, reply) => {
    const reason = failed ? `start-up failed: ${failed}` : !started ? 'starting' : ((await databaseProblem(db)) ?? deps.engineProblem?.());
    if (!reason) return { code: 1, msg: 'ok', data: { status: 'ready' } };
    request.log.warn({ reason }, 'not ready');
    return reply.status(503).send(errorEnvelope(deps.translate, languageOf(request.headers.lang), 'ServiceUnavailable'));
  });

  app.get('/metrics', async (_request, reply) => {
    const text = await metrics.registry.metrics();
    return reply.type(metrics.registry.contentType).header('cache-control', 'no-store').send(text);
  });
}

/** Why the database is not ready (unreachable, slow, or without this build's migrations), or undefined. */
async function databaseProblem(db: Db): Promise<string | undefined> {
  try {
    const { rows } = await within(sql<{ migrated: boolean }>`select exists(select 1 from kysely_migration where name = ${LATEST_MIGRATION}) as migrated`.execute(db), PROBE_TIMEOUT_MS);
    return rows[0]?.migrated ? undefined : `migration ${LATEST_MIGRATION} not applied`;
  } catch (e) {
    // No bookkeeping table at all: never migrated.
    if ((e as { code?: unknown }).code === '42P01') return `migration ${LATEST_MIGRATION} not applied`;
    return `database unreachable: ${(e as Error)?.message ?? String(e)}`;
  }
}
