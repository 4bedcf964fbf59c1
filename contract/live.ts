/**
 * The live stream (GET /api/stream): what the server tells an open app the moment it is committed.
 *
 * Written without zod on purpose: the PWA reads these names and the refresh table at run time, and the
 * server writes the events itself (they are never input). Each event carries the user's own sequence
 * number (the SSE `id`), given in the transaction that made it, so a reconnect with `Last-Event-ID`
 * resumes exactly where the screen left off.
 */
import type { CallName } from './calls.ts';

/** Where the stream is served, under /api. */
export const STREAM_PATH = '/api/stream';
/** A comment line this often keeps proxies and phones from dropping an idle stream. */
export const STREAM_HEARTBEAT_MS = 20_000;
/** How far back a reconnect is replayed from the database; an older `Last-Event-ID` gets a `reset`. */
export const STREAM_REPLAY_MS = 24 * 3_600_000;
/** At most this many events are replayed on a reconnect; more missed than that is a `reset` too. */
export const STREAM_REPLAY_MAX = 500;

export type OrderStatus = 'placed' | 'filled' | 'partial' | 'failed';
export type BotStatusEvent = 'running' | 'paused' | 'stopped' | 'deleted';

/** What happened, by kind; every kind names the record it is about, never a secret. */
export interface LiveEvents {
  /** A bot's order was placed, filled (partly) or refused. */
  order: { bot: string; order: string; side: 'buy' | 'sell'; reason: string; status: OrderStatus; price?: string; amount?: string; symbol?: string };
  /** A bot's cycle (deal) closed, with its profit in the quote asset. */
  cycle: { bot: string; cycle: number; profit: string; how: string; symbol?: string };
  /** A bot was started, paused, stopped or deleted; `reason` says why a pause happened. */
  bot: { bot: string; status: BotStatusEvent; reason?: string };
  /** A platform balance (usdt, fuel, points, rewards) changed. */
  balance: { asset: string };
  /** A deposit was credited. */
  deposit: { deposit: string; amount: string };
  /** A withdrawal moved on (signed, sent, confirmed, failed). */
  withdrawal: { withdrawal: string; status: string };
  /** A notice or warning was left for the trader (the notices screen words it by code). */
  notice: { notice: string; level: 'warning' | 'notice'; code: string; bot?: string };
  /** An exchange stopped answering, or answers again. */
  exchange: { exchange: string; state: 'down' | 'up' };
}
export type LiveKind = keyof LiveEvents;
export type LiveEvent = { [K in LiveKind]: { kind: K } & LiveEvents[K] }[LiveKind];
/** An event as the stream sends it: its sequence number and when it was committed. */
export type StreamedEvent = LiveEvent & { id: string; at: string };

export const liveKinds: readonly LiveKind[] = ['order', 'cycle', 'bot', 'balance', 'deposit', 'withdrawal', 'notice', 'exchange'];

/**
 * What each kind changes on screen: the calls whose answers the app fetches again when the event
 * arrives (those on screen now, the rest when next shown). The same idea as a write's `changes`.
 */
export const liveChanges: Record<LiveKind, readonly CallName[]> = {
  order: ['userBotDetail', 'userBotActions', 'userBotPositions', 'userPositionAdds', 'userPositions', 'userActions', 'userBotList', 'userAsset', 'userPortfolio'],
  cycle: [
    'userBotDetail',
    'userBotActions',
    'userBotPositions',
    'userPositionAdds',
    'userPositions',
    'userActions',
    'userBotList',
    'userPnl',
    'userBill',
    'userBillLogs',
    'userBillGroup',
    'userAsset',
    'userPortfolio',
    'userIndex',
  ],
  bot: ['userBotDetail', 'userBotActions', 'userBotList', 'userBotCount', 'userPositions', 'userIndex'],
  balance: ['userAsset', 'userAccount', 'userAccountLogs', 'userPortfolio', 'userIndex', 'userChangeInfo', 'userWithdrawInfo'],
  deposit: ['userDeposit', 'userDepositInfo', 'userAccount', 'userAccountLogs', 'userAsset'],
  withdrawal: ['userWithdrawInfo', 'userAccount', 'userAccountLogs', 'userAsset'],
  notice: ['noticeList', 'userIndex'],
  exchange: ['userBotList', 'userBotDetail', 'userApi'],
};

/**
 * The frames besides the events: `ready` once a (re)connect has replayed what was missed (the stream is
 * up: screens stop polling), `reset` when what was missed cannot be replayed (older than the window, or
 * more than STREAM_REPLAY_MAX): every screen loads again. Both carry the id to resume from.
 */
export type StreamFrame = { type: 'ready'; id: string } | { type: 'reset'; id: string };
