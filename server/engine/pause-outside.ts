import { checkLease, type Fence } from '../cluster/leases.ts';
import type { Db } from '../db/connect.ts';
import { leaveNotice } from '../events/notice.ts';
import { later } from '../events/outbox.ts';
import { logActions } from '../store/bot-actions.ts';
import { botName, pauseRunningBot } from '../store/bot-decisions.ts';

/**
 * Pauses a running bot from outside a strategy's decision (an order its venue lost, a coin its account
 * lacks), in the caller's transaction with the bot's row locked: the pause with its reason, its log line,
 * the trader's warning (code = reason) naming the bot, and the event for their open app. A bot that was not
 * running is left as it is; `always` still logs and warns (the order's fate is news however the bot stands).
 * In a cluster only the bot's lease holder may pause it (`fence`, checked in the transaction: LeaseLost
 * otherwise): a process that lost the bot unknowingly (stopped, then woken) judges it on a state that
 * its new holder has moved on from. Answers whether it was paused.
 */
export async function pauseOutsideDecision(
  tx: Db,
  pause: { botId: string; userId: string; reason: string; detail: Record<string, string>; always?: boolean; fence?: Fence | undefined },
): Promise<boolean> {
  if (pause.fence) await checkLease(tx, pause.botId, pause.fence);
  const paused = await pauseRunningBot(tx, { id: pause.botId, reason: pause.reason });
  if (!paused && !pause.always) return false;
  await logActions(tx, [{ botId: pause.botId, kind: 'pause', detail: { reason: pause.reason, ...pause.detail } }]);
  const name = await botName(tx, { id: pause.botId });
  await leaveNotice(tx, pause.userId, { kind: 'warning', code: pause.reason, detail: { bot: pause.botId, ...(name !== undefined ? { name } : {}), ...pause.detail } });
  if (paused) await later(tx, pause.userId, { kind: 'bot', bot: pause.botId, status: 'paused', reason: pause.reason });
  return paused;
}
