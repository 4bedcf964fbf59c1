import { sql } from 'kysely';
import type { Db } from '../db/connect.ts';

/**
 * Commands reach the owner at once (issue 15 §2, design §3.3 "API -> owner"): a start, pause, resume,
 * stop, edit or delete writes the bot's row and, in the same transaction, `pg_notify('qb_bot', id)`;
 * every engine LISTENs on PostgreSQL and the one holding the bot reloads it (the others ignore it, or,
 * for a bot just started that nobody owns, run a claim round). A notification is sent only if the
 * transaction commits. The status fence in the decision transaction covers the moment until the owner
 * has reloaded; the owner's ownership round (every second) covers a notification lost with a dropped
 * connection. On the embedded PGlite (one process) the in-process refresh is all there is.
 */
export const BOT_CHANNEL = 'qb_bot';

/** Inside the transaction that changed the bot: tells its owner, wherever it runs, once committed. */
export async function notifyBot(tx: Db, botId: string): Promise<void> {
  await sql`select pg_notify(${BOT_CHANNEL}, ${String(botId)})`.execute(tx);
}

export interface BotListener {
  close(): Promise<void>;
}

/**
 * A dedicated PostgreSQL connection LISTENing for bot changes; `onBot` gets each bot id. Reconnects
 * (after a second) when the connection drops; what it missed meanwhile the ownership round catches.
 */
export async function listenBots(url: string, onBot: (botId: string) => void, log?: { error(obj: unknown, msg: string): void }): Promise<BotListener> {
  const { default: pg } = await import('pg');
  let closed = false;
  let client: InstanceType<typeof pg.Client> | undefined;
  const connect = async (): Promise<void> => {
    const c = new pg.Client({ connectionString: url });
    c.on('notification', (n) => {
      if (n.channel === BOT_CHANNEL && n.payload) onBot(n.payload);
    });
    c.on('error', (error) => {
      log?.error({ err: error }, 'bot listener lost its connection');
      if (!closed) setTimeout(() => void connect().catch(() => undefined), 1000).unref();
    });
    await c.connect();
    await c.query(`LISTEN ${BOT_CHANNEL}`);
    client = c;
  };
  await connect();
  return {
    close: async () => {
      closed = true;
      await client?.end().catch(() => undefined);
    },
  };
}
