import type { Agent } from 'node:https';
import { sql } from 'kysely';
import type { AlertKind } from '../../contract/alert-kinds.ts';
import type { Quiet } from '../../contract/alerts.ts';
import type { Language } from '../../contract/envelope.ts';
import type { Db } from '../db/connect.ts';
import { eventsAfter } from '../events/log.ts';
import { declarativePush } from '../push/payload.ts';
import { sendPush, topicOf } from '../push/send.ts';
import type { SecretBox } from '../security/secret-box.ts';
import { botLabel } from '../store/bot-rows.ts';
import type { WebhookPolicy } from '../webhooks/check-url.ts';
import { backoffMs, sendWebhook } from '../webhooks/send.ts';
import { modesOf, vapidKeys } from './settings.ts';
import { planOf, wordsOf } from './words.ts';

export interface AlertDeps {
  db: Db;
  box: SecretBox;
  /** The app's origin: the links the notifications open. */
  appOrigin: string;
  vapidSubject: string;
  webhookPolicy?: WebhookPolicy;
  /** The HTTPS agent for push services (a test's trusts its local push service). */
  pushAgent?: Agent;
  log?: { warn(obj: unknown, msg: string): void; error(obj: unknown, msg: string): void };
  now?: () => Date;
}

/** Fills of one bot go out at most this often. */
export const FILL_BATCH_MS = 60_000;
/** A claimed alert is someone's for this long: a sender that dies mid-send leaves it to the next round then. */
const CLAIM_MS = 120_000;
const MAX_ATTEMPTS = 6;

/** An outbox row claimed for sending. */
interface Claimed {
  id: string;
  user_id: string;
  topic: string;
  kind: string;
  data: Record<string, string>;
  count: number;
  attempt: number;
  /** The targets it already reached. */
  done: string[];
}

/** Whether `now` falls in the quiet hours (from..to in their zone, across midnight when to < from). */
export function inQuiet(quiet: Quiet | null, now: Date): boolean {
  if (!quiet) return false;
  const parts = new Intl.DateTimeFormat('en-GB', { timeZone: quiet.zone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(now);
  const minutes = Number(parts.find((p) => p.type === 'hour')?.value ?? 0) * 60 + Number(parts.find((p) => p.type === 'minute')?.value ?? 0);
  const at = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
  const from = at(quiet.from);
  const to = at(quiet.to);
  return from <= to ? minutes >= from && minutes < to : minutes >= from || minutes < to;
}

/**
 * Alerts when the app is closed, run by one process at a time (a duty): each round it reads the new
 * events of every user who has a device or a webhook (the event log is the source: nothing is lost when
 * this process dies, the next holder reads on from the stored cursor), turns those that alert into
 * outbox rows (a bot's fills gathered into one row, sent at most once a minute), and sends the rows that
 * are due, to every device of the user and to the webhook.
 */
export class AlertSender {
  private readonly deps: AlertDeps;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(deps: AlertDeps) {
    this.deps = deps;
  }

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  /** Rounds every `everyMs` until stopped. */
  start(everyMs = 1000): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      if (!this.running) {
        this.running = this.round()
          .catch((e: unknown) => this.deps.log?.error({ err: { message: String((e as Error)?.message ?? e) } }, 'alerts round failed'))
          .finally(() => (this.running = undefined));
      }
    }, everyMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** One round: new events into the outbox, then the due alerts out. */
  async round(): Promise<void> {
    await this.collect();
    await this.sendDue();
  }

  /** Reads the events past each follower's cursor into the outbox, in one transaction per user. */
  async collect(): Promise<void> {
    const { db } = this.deps;
    const behind = await db.selectFrom('alert_cursors as c').innerJoin('user_event_heads as h', 'h.user_id', 'c.user_id').select(['c.user_id']).whereRef('h.seq', '>', 'c.seq').limit(200).execute();
    for (const { user_id } of behind) {
      const userId = String(user_id);
      await db.transaction().execute(async (tx) => {
        const cursor = await tx.selectFrom('alert_cursors').select('seq').where('user_id', '=', userId).forUpdate().skipLocked().executeTakeFirst();
        if (!cursor) return;
        const events = await eventsAfter(tx, userId, cursor.seq, 500, this.now());
        const settings = await tx.selectFrom('alert_settings').select('modes').where('user_id', '=', userId).executeTakeFirst();
        const modes = modesOf(settings?.modes);
        for (const e of events) {
          const plan = planOf(e);
          if (!plan || modes[plan.kind] === 'off') continue;
          let sendAfter = this.now();
          if (plan.batched) {
            const sent = await tx.selectFrom('alert_sent').select('at').where('user_id', '=', userId).where('topic', '=', plan.topic).executeTakeFirst();
            if (sent && sent.at.getTime() + FILL_BATCH_MS > sendAfter.getTime()) sendAfter = new Date(sent.at.getTime() + FILL_BATCH_MS);
          }
          await tx
            .insertInto('alert_outbox')
            .values({ user_id: userId, topic: plan.topic, kind: plan.kind, data: JSON.stringify({ ...plan.data, urgency: plan.urgency, ttl: String(plan.ttlSeconds) }), send_after: sendAfter })
            // A newer alert of the topic (a fill more) is news to every target, those a retry would skip too.
            .onConflict((c) => c.columns(['user_id', 'topic']).doUpdateSet({ count: sql`alert_outbox.count + 1`, data: sql`excluded.data`, done: sql`'[]'::jsonb` }))
            .execute();
        }
        // Past the last event read; when none could be read (past the window), up to the head.
        const last = events.at(-1)?.id ?? (await tx.selectFrom('user_event_heads').select('seq').where('user_id', '=', userId).executeTakeFirst())?.seq ?? cursor.seq;
        await tx.updateTable('alert_cursors').set({ seq: last }).where('user_id', '=', userId).execute();
      });
    }
  }

  /** Sends the alerts that are due; answers how many rows it handled. */
  async sendDue(): Promise<number> {
    const { db } = this.deps;
    const now = this.now();
    // Claimed first, committed, then sent: no row lock is held while a push service is slow.
    const { rows } = await sql<Claimed>`
      update alert_outbox set send_after = ${new Date(now.getTime() + CLAIM_MS)}, attempt = attempt + 1
      where id in (select id from alert_outbox where send_after <= ${now} order by send_after limit 50 for update skip locked)
      returning id, user_id, topic, kind, data, count, attempt, done`.execute(db);
    await Promise.all(rows.map((row) => this.sendOne({ ...row, user_id: String(row.user_id), id: String(row.id) })));
    return rows.length;
  }

  private async sendOne(row: Claimed): Promise<void> {
    const { db, box } = this.deps;
    const now = this.now();
    const [subs, settings, unread] = await Promise.all([
      db.selectFrom('push_subscriptions').selectAll().where('user_id', '=', row.user_id).execute(),
      db.selectFrom('alert_settings').selectAll().where('user_id', '=', row.user_id).executeTakeFirst(),
      db
        .selectFrom('notices')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('user_id', '=', row.user_id)
        .where('read_at', 'is', null)
        .executeTakeFirstOrThrow(),
    ]);
    const test = row.kind === 'test';
    const mode = test ? 'on' : modesOf(settings?.modes)[row.kind as AlertKind];
    if (mode === 'off') {
      await db.deleteFrom('alert_outbox').where('id', '=', row.id).execute();
      return;
    }
    // Security alerts keep their sound in quiet hours: they are the ones a trader must not sleep through.
    const silent = mode === 'silent' || (row.kind !== 'security' && inQuiet((settings?.quiet as Quiet | null) ?? null, now));
    const bot = row.data.bot ? await botLabel(db, { id: row.data.bot }) : undefined;
    const ttlSeconds = Number(row.data.ttl ?? 3600);
    const urgency = (row.data.urgency as 'low' | 'normal' | 'high' | undefined) ?? 'normal';
    // Each target is sent to once: those a retry finds done (they took it before) are skipped.
    const done = new Set(row.done);
    let retryMs = 0;
    const waiting = subs.filter((sub) => !done.has(`push:${sub.id}`));
    if (waiting.length > 0) {
      const vapid = { ...(await vapidKeys(db, box)), subject: this.deps.vapidSubject };
      for (const sub of waiting) {
        const lang = (sub.lang === 'en' ? 'en' : 'zh') as Language;
        const words = wordsOf(row.kind, row.data, row.count, lang, bot);
        const payload = declarativePush({ title: words.title, body: words.body, navigate: words.path, lang, badge: Number(unread.n), tag: row.topic, silent }, this.deps.appOrigin);
        const outcome = await sendPush({ endpoint: sub.endpoint, keys: { p256dh: sub.p256dh, auth: sub.auth } }, { payload, ttlSeconds, urgency, topic: topicOf(row.kind, row.topic) }, vapid, {
          ...(this.deps.pushAgent ? { agent: this.deps.pushAgent } : {}),
        });
        if (outcome.outcome === 'sent') done.add(`push:${sub.id}`);
        else if (outcome.outcome === 'gone') await db.deleteFrom('push_subscriptions').where('id', '=', sub.id).execute();
        else if (outcome.outcome === 'retry') retryMs = Math.max(retryMs, outcome.afterMs);
        else if (outcome.outcome === 'too-big') this.deps.log?.error({ topic: row.topic, kind: row.kind }, 'push refused as too large');
        else this.deps.log?.warn({ status: outcome.status, reason: outcome.reason }, 'push failed');
      }
    }
    if (settings?.webhook_url && settings.webhook_sealed && !done.has('webhook')) {
      const lang = (settings.lang === 'en' ? 'en' : 'zh') as Language;
      const words = wordsOf(row.kind, row.data, row.count, lang, bot);
      const payload = {
        id: `alert-${row.id}`,
        kind: row.kind,
        title: words.title,
        body: words.body,
        url: new URL(words.path, this.deps.appOrigin).toString(),
        count: row.count,
        at: now.toISOString(),
      };
      const outcome = await sendWebhook({ url: settings.webhook_url, secret: box.open(settings.webhook_sealed, `webhook:${row.user_id}`) }, payload, {
        ...(this.deps.webhookPolicy ?? {}),
        attempt: row.attempt - 1,
      });
      if (outcome.outcome === 'delivered') done.add('webhook');
      else if (outcome.outcome === 'retry') retryMs = Math.max(retryMs, outcome.afterMs, backoffMs(row.attempt - 1));
      else
        this.deps.log?.warn(
          { outcome: outcome.outcome, ...('status' in outcome ? { status: outcome.status } : {}), ...('reason' in outcome ? { reason: outcome.reason } : {}) },
          'webhook not delivered',
        );
    }
    // Tried again for the targets that asked to be asked later, unless fills came meanwhile: then the
    // batch goes on as below, and the next one (a minute on) reaches every target.
    if (retryMs > 0 && row.attempt < MAX_ATTEMPTS) {
      const kept = await db
        .updateTable('alert_outbox')
        .set({ send_after: new Date(now.getTime() + retryMs), done: JSON.stringify([...done]) })
        .where('id', '=', row.id)
        .where('count', '=', row.count)
        .executeTakeFirst();
      if (Number(kept.numUpdatedRows) > 0) return;
    }
    await db.transaction().execute(async (tx) => {
      // Fills that came while this was being sent stay, as the next batch (a minute on).
      const gone = await tx.deleteFrom('alert_outbox').where('id', '=', row.id).where('count', '=', row.count).executeTakeFirst();
      if (Number(gone.numDeletedRows) === 0) {
        await tx
          .updateTable('alert_outbox')
          .set({ count: sql`count - ${row.count}`, send_after: new Date(now.getTime() + FILL_BATCH_MS), attempt: 0, done: JSON.stringify([]) })
          .where('id', '=', row.id)
          .execute();
      }
      if (row.kind === 'fills') {
        await tx
          .insertInto('alert_sent')
          .values({ user_id: row.user_id, topic: row.topic, at: now })
          .onConflict((c) => c.columns(['user_id', 'topic']).doUpdateSet({ at: now }))
          .execute();
      }
    });
  }
}
