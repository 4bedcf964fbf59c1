import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { kitOf, tradableTypes } from '../../strategy/kit.ts';
import { sql } from 'kysely';
import { z } from 'zod';
import type { BotSignal, BotWebhook } from '../../contract/bots.ts';
import type { Page } from '../../contract/envelope.ts';
import type { Db } from '../db/connect.ts';
import { findOwnBotType, statusNow } from '../store/bot-rows.ts';
import { logAction } from '../store/bot-actions.ts';
import { pageOwnSignals, webhookBotByHash } from '../store/bot-signals.ts';
import type { CommandOutcome } from '../cluster/commands.ts';
import type { EngineSide } from '../trading.ts';
import { fail } from '../errors.ts';
import type { Language } from '../../contract/envelope.ts';
import { signalProblemWords } from '../../contract/signal-problems.ts';

/**
 * Signal bots: a DCA or custom bot's secret webhook, `POST /api/signal/{token}`, takes a
 * TradingView-style alert and hands it to the bot's engine like a manual command (engine.manual, which
 * reaches the owning process in a cluster: server/cluster/commands.ts). The token (32 random bytes,
 * base64url: 256 bits) is stored as its SHA-256 only and shown once, when made. Every signal is
 * recorded (bot_signals) before it is acted on; the decision's own transaction marks it placed
 * (server/engine/persist.ts), so a signal is acted on at most once, and the unique (bot, alert id)
 * index makes a replayed or duplicated alert do nothing. docs/api.md "Signal webhooks".
 */

/** Whether a bot type takes signals (kit.takesSignals: any DCA or custom bot, whatever its start condition or entry rule). */
const takesSignals = (type: string) => tradableTypes.includes(type) && kitOf(type).takesSignals;

/** A token as made: 43 base64url characters (32 bytes). Anything else is refused before the database is asked. */
const TOKEN_RE = /^[A-Za-z0-9_-]{43}$/;

/** A signal left `received` this long (its process died between recording and acting) is acted on by a retry of the same alert. */
const STALE_MS = 30_000;

const hashOf = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');
const iso = (d: Date | string) => new Date(d).toISOString();

/** The alert body (docs/api.md): action and id required; price, amount and note optional, informational (logged, not traded on). */
const decimalText = z
  .union([z.string(), z.number()])
  .transform(String)
  .pipe(z.string().regex(/^\d{1,20}(\.\d{1,18})?$/, 'decimal'));
export const signalBodySchema = z.strictObject({
  action: z.enum(['buy', 'sell', 'close']),
  id: z
    .union([z.string(), z.number()])
    .transform(String)
    .pipe(z.string().regex(/^[\x21-\x7e]{1,64}$/, 'id')),
  price: decimalText.optional(),
  amount: decimalText.optional(),
  note: z.string().max(200).optional(),
});
export type SignalBody = z.output<typeof signalBodySchema>;

async function ownSignalBot(db: Db, userId: string, id: string) {
  const row = await findOwnBotType(db, { userId, id });
  if (!row) throw fail('StrategyNotFound');
  if (!takesSignals(row.type)) throw fail('SignalTypeUnsupported');
  return row;
}

/** Whether the owner's bot has a webhook (never its token: only its hash is kept). */
export async function webhookOf(db: Db, userId: string, id: string): Promise<BotWebhook> {
  await ownSignalBot(db, userId, id);
  const { rows } = await sql<RefusedRow & { created_at: Date }>`select created_at, refused, refused_at, refused_reason from bot_webhooks where bot_id = ${id}`.execute(db);
  const row = rows[0];
  return { enabled: row !== undefined, createdAt: row ? iso(row.created_at) : null, token: null, path: null, ...refusedOf(row) };
}

interface RefusedRow {
  refused: number;
  refused_at: Date | null;
  refused_reason: string | null;
}
const refusedOf = (row: RefusedRow | undefined) => ({
  refused: Number(row?.refused ?? 0),
  refusedAt: row?.refused_at ? iso(row.refused_at) : null,
  refusedReason: row?.refused_reason ?? null,
});

/** Makes the owner's bot a new webhook token (the old one stops working at once) and answers it, once. */
export async function resetWebhook(db: Db, userId: string, id: string, lang: Language = 'zh'): Promise<BotWebhook> {
  await ownSignalBot(db, userId, id);
  const token = randomBytes(32).toString('base64url');
  const { rows } = await sql<RefusedRow & { created_at: Date }>`
    insert into bot_webhooks (bot_id, token_hash, lang) values (${id}, ${hashOf(token)}, ${lang})
    on conflict (bot_id) do update set token_hash = excluded.token_hash, lang = excluded.lang, created_at = now()
    returning created_at, refused, refused_at, refused_reason`.execute(db);
  return { enabled: true, createdAt: iso(rows[0]!.created_at), token, path: `/api/signal/${token}`, ...refusedOf(rows[0]) };
}

/** The owner's bot's signals, newest first. */
export async function signalsOf(db: Db, userId: string, id: string, page: number, pageSize: number): Promise<Page<BotSignal>> {
  await ownSignalBot(db, userId, id);
  const { rows, total } = await pageOwnSignals(db, { userId, botId: id, limit: pageSize, offset: (page - 1) * pageSize });
  return {
    list: rows.map((r) => ({
      id: String(r.id),
      signalId: r.signal_id,
      action: r.action,
      price: r.price,
      amount: r.amount,
      note: r.note,
      status: r.status,
      reason: r.reason,
      at: iso(r.created_at),
    })),
    total,
    page,
    page_size: pageSize,
  };
}

/** What a signal came to, as the webhook answers it. */
export interface SignalAnswer {
  signal: string;
  result: 'placed' | 'nothing';
}

/** The bot a webhook token opens. */
export interface SignalBot {
  id: string;
  userId: string;
  status: string;
  type: string;
  /** The language its owner made the webhook in: a webhook call names none, and is answered in this one. */
  lang: Language;
}

/** The signal bot a token opens, or undefined: the same for a malformed, unknown or replaced token. */
export async function signalBotOf(db: Db, token: string): Promise<SignalBot | undefined> {
  const bot = await botOfToken(db, token);
  return bot && takesSignals(bot.type) ? bot : undefined;
}

/** The bot a token opens, or undefined: the same for a malformed, unknown or replaced token. */
async function botOfToken(db: Db, token: string): Promise<SignalBot | undefined> {
  const hash = hashOf(TOKEN_RE.test(token) ? token : `malformed:${token}`);
  const row = await webhookBotByHash(db, { hash });
  // The row is found by the hash (a lookup by a one-way hash tells nothing of the token); the hashes are compared again in constant time.
  const found = Buffer.from(row?.token_hash ?? '0'.repeat(64), 'hex');
  const same = timingSafeEqual(found, Buffer.from(hash, 'hex'));
  return row && same && TOKEN_RE.test(token) ? { id: String(row.bot_id), userId: String(row.user_id), status: row.status, type: row.type, lang: row.lang === 'en' ? 'en' : 'zh' } : undefined;
}

const logSignal = (db: Db, botId: string, detail: Record<string, string>) => logAction(db, { botId, kind: 'signal', detail });

/**
 * Counts a refused body on its bot: how many, the last one's time and why (the owner reads them with the
 * webhook). Not a row per body: a sender of bad bodies fills nothing.
 */
export async function countRefused(db: Db, botId: string, reason: string): Promise<void> {
  await sql`update bot_webhooks set refused = refused + 1, refused_at = now(), refused_reason = ${reason.slice(0, 200)} where bot_id = ${botId}`.execute(db);
}

/** What the webhook is told about a bot besides its token: the least time between two signals that act. */
export interface SignalOptions {
  /** A running bot acts on at most one signal in this time (ms); a second one within it is refused (RateLimited, with the seconds). 0: no gap. */
  gapMs?: number;
}

/**
 * Claims the bot's turn to act: its last acting signal at least `gapMs` ago (one statement, so two
 * processes cannot both claim it). Answers how to give the turn back (the signal did not act after all)
 * or the seconds to wait.
 */
async function claimTurn(db: Db, botId: string, gapMs: number): Promise<{ release: () => Promise<void> } | { waitS: number }> {
  const gap = sql.raw(`interval '${Math.max(0, Math.trunc(gapMs))} milliseconds'`);
  const { rows } = await sql<{ before: string | null; claimed: string }>`
    update bot_webhooks w set acted_at = now()
    from (select acted_at from bot_webhooks where bot_id = ${botId} for update) prev
    where w.bot_id = ${botId} and (prev.acted_at is null or prev.acted_at <= now() - ${gap})
    returning prev.acted_at::text as before, w.acted_at::text as claimed`.execute(db);
  const row = rows[0];
  if (row) {
    return {
      release: async () => {
        await sql`update bot_webhooks set acted_at = ${row.before}::timestamptz where bot_id = ${botId} and acted_at = ${row.claimed}::timestamptz`.execute(db);
      },
    };
  }
  const { rows: wait } = await sql<{ s: number }>`
    select greatest(1, ceil(extract(epoch from (acted_at + ${gap} - now()))))::float8 as s from bot_webhooks where bot_id = ${botId}`.execute(db);
  return { waitS: Number(wait[0]?.s ?? 1) };
}

/** The body as JSON: TradingView sends its alert message as text/plain unless it is JSON itself. */
function parsed(body: unknown): unknown {
  if (typeof body !== 'string') return body;
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return undefined;
  }
}

/** What was wrong with a refused alert (its first problem), as contract/signal-problems.ts codes it. */
function problemOf(value: unknown, error: z.ZodError): string {
  if (value === undefined) return 'json';
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'object';
  const issue = error.issues[0]!;
  if (issue.code === 'unrecognized_keys') return `unknown:${issue.keys.join(',')}`.slice(0, 200);
  const field = String(issue.path[0] ?? '');
  if ((field === 'action' || field === 'id') && (value as Record<string, unknown>)[field] === undefined) return `missing:${field}`;
  if (field === 'action' || field === 'id' || field === 'note') return field;
  if (field === 'price' || field === 'amount') return `number:${field}`;
  return `field:${issue.path.map(String).join('.')}`.slice(0, 200);
}

/**
 * A signal from a webhook (no session: the token is the signature), given its token or the bot the route
 * found by it. Unknown token: SignalTokenInvalid, nothing recorded. Bad body: counted on the bot
 * (countRefused), SignalBodyInvalid. A running bot's second acting signal within `gapMs`: not recorded,
 * RateLimited with the seconds. A bot not running: recorded
 * ignored, logged, SignalBotNotRunning. An alert id seen before: SignalDuplicate, nothing done (unless
 * the first was recorded and its process died before acting: then this retry acts on it). Else the
 * bot's engine decides on it (placed: an order sent; nothing: nothing to do, e.g. a buy while a deal is
 * open); busy, expired or error: StrategyBusy.
 */
export async function receiveSignal(db: Db, trading: EngineSide, token: string | SignalBot, body: unknown, options: SignalOptions = {}): Promise<SignalAnswer> {
  const bot = typeof token === 'string' ? await signalBotOf(db, token) : token;
  if (!bot) throw fail('SignalTokenInvalid');
  const value = parsed(body);
  const check = signalBodySchema.safeParse(value);
  if (!check.success) {
    const problem = problemOf(value, check.error);
    await countRefused(db, bot.id, problem);
    throw fail('SignalBodyInvalid', { values: { problem: signalProblemWords(problem, bot.lang) } });
  }
  const s = check.data;
  const running = bot.status === 'running';
  const { rows } = await sql<{ id: string }>`
    insert into bot_signals (bot_id, signal_id, action, price, amount, note, status, reason, done_at)
    values (${bot.id}, ${s.id}, ${s.action}, ${s.price ?? null}, ${s.amount ?? null}, ${s.note ?? null},
      ${running ? 'received' : 'ignored'}, ${running ? null : bot.status}, ${running ? null : sql`now()`})
    on conflict (bot_id, signal_id) where signal_id is not null do nothing returning id`.execute(db);
  let signal = rows[0]?.id === undefined ? undefined : String(rows[0].id);
  const fresh = signal !== undefined;
  if (signal === undefined) {
    // Seen before. Acted on (or settled) already: nothing. Recorded but never acted on, by a process
    // that died in between: this retry acts on it (the decision's transaction still acts on it once).
    const { rows: seen } = await sql<{ id: string }>`
      select id from bot_signals where bot_id = ${bot.id} and signal_id = ${s.id} and status = 'received'
        and created_at < now() - ${sql.raw(`interval '${STALE_MS} milliseconds'`)}`.execute(db);
    if (!seen[0] || !running) throw fail('SignalDuplicate');
    signal = String(seen[0].id);
  }
  if (!running) {
    await logSignal(db, bot.id, { action: s.action, id: s.id, result: 'ignored', status: bot.status });
    throw fail('SignalBotNotRunning');
  }
  // One acting signal per gap: a second one within it is not recorded (its alert id stays unused) and is told the wait.
  let turn: { release: () => Promise<void> } | undefined;
  if ((options.gapMs ?? 0) > 0) {
    const claimed = await claimTurn(db, bot.id, options.gapMs ?? 0);
    if ('waitS' in claimed) {
      if (fresh) await sql`delete from bot_signals where id = ${signal} and status = 'received'`.execute(db);
      throw fail('RateLimited', { values: { seconds: claimed.waitS } });
    }
    turn = claimed;
  }
  let result: CommandOutcome;
  try {
    const id = signal;
    result = (await trading.engine.serial(bot.id, () => trading.engine.manual(bot.id, 'signal', { signal: id }))).result;
  } catch {
    result = 'error';
  } finally {
    trading.listCache.bump(bot.userId);
  }
  if (result === 'placed') return { signal, result };
  // No order: the next signal need not wait for this one.
  await turn?.release();
  // Not acted on: settled here (unless the engine did meanwhile), and why, in the bot's log.
  const stopped = (await statusNow(db, { id: bot.id })) !== 'running';
  const status = stopped ? 'ignored' : result;
  const settled = await sql<{ id: string }>`
    update bot_signals set status = ${status}, done_at = now() where id = ${signal} and status = 'received' returning id`.execute(db);
  if (settled.rows.length > 0) await logSignal(db, bot.id, { action: s.action, id: s.id, result: status });
  if (stopped) throw fail('SignalBotNotRunning');
  if (result === 'nothing') return { signal, result };
  throw fail('StrategyBusy');
}
