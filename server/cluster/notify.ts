import { type Kysely, sql } from 'kysely';
import { embeddedInstance, type Db } from '../db/connect.ts';

/**
 * Commands reach the owner at once: a start, pause, resume,
 * stop, edit or delete writes the bot's row and, in the same transaction, `pg_notify('qb_bot', id)`;
 * every engine LISTENs on PostgreSQL and the one holding the bot reloads it (the others ignore it, or,
 * for a bot just started that nobody owns, run a claim round). A notification is sent only if the
 * transaction commits. The status fence in the decision transaction covers the moment until the owner
 * has reloaded; the owner's ownership round (every second) covers a notification lost with a dropped
 * connection. On the embedded PGlite (one process) the in-process refresh is all there is.
 */
export const BOT_CHANNEL = 'qb_bot';
/** A user's bots changed (payload: user id): every process drops its cached bot-list pages of that user. */
export const BOT_LIST_CHANNEL = 'qb_bots';
/** A user's sessions changed (payload: user id): every process forgets its cached sessions of that user. */
export const SESSION_CHANNEL = 'qb_session';
/** A manual command waits for the bot's owner (payload: bot id; server/cluster/commands.ts). */
export const COMMAND_CHANNEL = 'qb_command';
/** A manual command's result was written (payload: command id): its sender reads it. */
export const COMMAND_DONE_CHANNEL = 'qb_command_done';
/** A user's live events were committed (payload: user id): every process's open streams of that user read them. */
export const EVENT_CHANNEL = 'qb_event';

/**
 * The channel `name` of the schema the connection works in (`name:schema`): notifications are global to
 * a PostgreSQL database, so two installations (or two test files running at once) in different schemas
 * of one database must not hear each other's bot ids, which name other bots there.
 */
export const channelOf = (name: string) => sql`${name} || ':' || current_schema()`;

/** Sends `payload` on the channel `name` of the connection's schema (channelOf). */
export async function notify(db: Db | Kysely<never>, name: string, payload: string): Promise<void> {
  await sql`select pg_notify(${channelOf(name)}, ${payload})`.execute(db);
}

/** The schema a connection works in: the one its listeners listen in. */
export async function schemaOf(db: Db): Promise<string> {
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  return rows[0]?.schema ?? 'public';
}

/** Inside the transaction that changed the bot: tells its owner, wherever it runs, once committed. */
export async function notifyBot(tx: Db, botId: string): Promise<void> {
  await notify(tx, BOT_CHANNEL, String(botId));
}

export interface BotListener {
  close(): Promise<void>;
}

/** Tells every process (this one too) that a user's bots or sessions changed; outside or inside a transaction. */
export async function notifyUser(db: Db, channel: typeof BOT_LIST_CHANNEL | typeof SESSION_CHANNEL, userId: string): Promise<void> {
  await notify(db, channel, String(userId));
}

/**
 * A dedicated PostgreSQL connection LISTENing on `handlers`' channels of `schema` (channelOf; default:
 * the connection's own, `public` for a plain URL); each handler gets the payloads of its channel.
 * Reconnects (after a second) when the connection drops, and calls `onReconnect` once listening again:
 * what was missed meanwhile is unknown, so caches are cleared whole (Tom Lane's "a forced cache clear is
 * an appropriate response to overrun").
 */
export async function listenChannels(
  url: string,
  handlers: Record<string, (payload: string) => void>,
  options: { onReconnect?: () => void; log?: { error(obj: unknown, msg: string): void }; schema?: string } = {},
): Promise<BotListener> {
  const { default: pg } = await import('pg');
  let closed = false;
  let connected = false;
  let client: InstanceType<typeof pg.Client> | undefined;
  let scoped = new Map<string, (payload: string) => void>();
  const connect = async (): Promise<void> => {
    const c = new pg.Client({ connectionString: url });
    c.on('notification', (n) => {
      if (n.payload) scoped.get(n.channel)?.(n.payload);
    });
    c.on('error', (error) => {
      options.log?.error({ err: error }, 'listener lost its connection');
      retry();
    });
    await c.connect();
    const schema = options.schema ?? String((await c.query<{ schema: string }>('select current_schema() as schema')).rows[0]?.schema ?? 'public');
    scoped = new Map(Object.entries(handlers).map(([name, handler]) => [`${name}:${schema}`, handler]));
    for (const channel of scoped.keys()) await c.query(`LISTEN "${channel.replaceAll('"', '""')}"`);
    client = c;
    if (connected) options.onReconnect?.();
    connected = true;
  };
  // Until it is back, each try a second after the last one failed.
  const retry = (): void => {
    if (!closed) setTimeout(() => void connect().catch(retry), 1000).unref();
  };
  await connect();
  return {
    close: async () => {
      closed = true;
      await client?.end().catch(() => undefined);
    },
  };
}

/**
 * A dedicated PostgreSQL connection LISTENing for bot changes; `onBot` gets each bot id. What it missed
 * while reconnecting the ownership round catches.
 */
export function listenBots(url: string, onBot: (botId: string) => void, options: { log?: { error(obj: unknown, msg: string): void }; schema?: string } = {}): Promise<BotListener> {
  return listenChannels(url, { [BOT_CHANNEL]: onBot }, options);
}

/**
 * LISTENs on `handlers`' channels of the database `db` works in: on PostgreSQL through a dedicated
 * connection (listenChannels, `url`), on the embedded PGlite through the instance itself, which hands a
 * transaction's notifications over once it commits, as PostgreSQL does.
 */
export async function listenDatabase(
  db: Db,
  url: string | undefined,
  handlers: Record<string, (payload: string) => void>,
  options: { onReconnect?: () => void; log?: { error(obj: unknown, msg: string): void } } = {},
): Promise<BotListener> {
  const pglite = embeddedInstance(db);
  if (!pglite) {
    if (!url) throw new Error('listening on PostgreSQL needs its URL');
    return listenChannels(url, handlers, { ...options, schema: await schemaOf(db) });
  }
  const instance = await pglite;
  const schema = await schemaOf(db);
  // PGlite sends LISTEN's channel name as written: quoted, as the schema suffix's colon needs.
  const stops = await Promise.all(Object.entries(handlers).map(([name, handler]) => instance.listen(`"${`${name}:${schema}`.replaceAll('"', '""')}"`, handler)));
  return {
    close: async () => {
      await Promise.all(stops.map((stop) => stop().catch(() => undefined)));
    },
  };
}
