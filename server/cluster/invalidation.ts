import type { Db } from '../db/connect.ts';
import { commandChannels, type CommandTarget } from './commands.ts';
import { BOT_CHANNEL, BOT_LIST_CHANNEL, listenChannels, notifyUser, SESSION_CHANNEL, schemaOf, type BotListener } from './notify.ts';

/**
 * Same answers on every process: on PostgreSQL each process LISTENs on one connection
 * and, for each notification, reloads the bot it owns (a command given on another process), drops the
 * user's cached bot-list pages, or forgets the user's cached sessions (a logout or revocation there is
 * refused here at once, not after the 5 s of the session cache). This process's own bumps of the bot
 * list are published to the others. A dropped connection clears both caches once it is back.
 */
/** A cache of users' bot-list pages (services/bot-list-cache.ts): what the invalidations drive. */
export interface SharedListCache {
  publish: ((userId: string) => void) | undefined;
  bumpFromPeer(userId: string): void;
  clear(): void;
}

/** The session cache (services/sessions.ts), given by the caller: the cluster layer sits below the services. */
export interface SessionCache {
  forgetUser(db: Db, userId: string): void;
  forgetAll(db: Db): void;
}

export async function shareInvalidations(
  url: string,
  db: Db,
  trading: { engine: { wake(botId: string): void } & CommandTarget; listCache: SharedListCache },
  sessions: SessionCache,
  log?: { error(obj: unknown, msg: string): void },
): Promise<BotListener> {
  trading.listCache.publish = (userId) => {
    notifyUser(db, BOT_LIST_CHANNEL, userId).catch((e: unknown) => log?.error({ err: { message: String((e as Error)?.message ?? e) } }, 'bot list notification failed'));
  };
  return listenChannels(
    url,
    {
      [BOT_CHANNEL]: (botId) => trading.engine.wake(botId),
      // Manual commands for a bot this process owns, and the results of the ones it sent.
      ...commandChannels(trading.engine),
      [BOT_LIST_CHANNEL]: (userId) => trading.listCache.bumpFromPeer(userId),
      [SESSION_CHANNEL]: (userId) => sessions.forgetUser(db, userId),
    },
    {
      onReconnect: () => {
        trading.listCache.clear();
        sessions.forgetAll(db);
      },
      ...(log ? { log } : {}),
      // The channels of the schema this process works in (notify.ts channelOf).
      schema: await schemaOf(db),
    },
  );
}
