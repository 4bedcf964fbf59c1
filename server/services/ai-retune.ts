import type { Db } from '../db/connect.ts';
import { exchangeById } from '../exchanges/catalog.ts';
import type { Trading } from '../trading.ts';
import { inputOf, search, type SearchWindow } from './ai.ts';
import { storedParams } from './bots.ts';
import { holdsBy } from '../../strategy/kit.ts';
import { notifyBot } from '../cluster/notify.ts';
import { readBotJson, setBotParams } from '../store/bot-rows.ts';
import { aiBotsDue } from '../store/bot-lists.ts';
import { logAction } from '../store/bot-actions.ts';
import { inTransaction } from '../events/outbox.ts';
import { leaveNotice } from '../events/notice.ts';
import { botName } from '../store/bot-decisions.ts';
import type { WithFields } from '../store/bot-fields.ts';

/**
 * Re-tuning of the AI bots: a bot whose last tuning is older than `everyMs` and that is
 * flat (no position, no order in flight) gets the search's best configuration of its own type for its
 * risk level and investment; a change of parameters is logged on the bot (an `update` action with the
 * new parameters and the score). A bot holding a position is left alone until it is flat.
 */
export async function retuneAiBots(
  deps: { db: Db; trading: Trading; log?: { error(obj: unknown, msg: string): void }; window?: SearchWindow },
  everyMs: number,
): Promise<{ checked: number; retuned: string[] }> {
  const { db, trading } = deps;
  const due = await aiBotsDue(db, { tunedBefore: new Date(Date.now() - everyMs) });
  const retuned: string[] = [];
  for (const bot of due) {
    const id = String(bot.id);
    try {
      const before = await readBotJson(db, { id });
      if (!flat(bot.type, before)) continue;
      const exchange = exchangeById(bot.exchange_id)?.code ?? '';
      const market = await trading.market(exchange, bot.symbol);
      const investment = bot.fields.investment;
      const { result } = await search(trading, { market, exchange, symbol: bot.symbol, investment, risk: bot.risk, owner: String(bot.user_id), window: deps.window });
      const best = result.proposals.find((p) => p.configuration.type === bot.type);
      await trading.engine.serial(id, async () => {
        const now = await readBotJson(db, { id });
        if (now.deleted_at || !flat(bot.type, now)) return; // it traded meanwhile: next time
        await inTransaction(db, async (tx) => {
          await tx.updateTable('ai_bots').set({ tuned_at: new Date() }).where('bot_id', '=', id).execute();
          if (!best) return;
          const params = storedParams(bot.type, inputOf(best.configuration));
          if (JSON.stringify(params) === JSON.stringify(now.params)) return;
          await setBotParams(tx, { id, params });
          await logAction(tx, { botId: id, kind: 'update', detail: { ai: 'retune', risk: bot.risk, score: String(best.score), params: JSON.stringify(params) } });
          const name = await botName(tx, { id });
          // The trader learns it from the notices: the bot trades with other parameters from now on.
          await leaveNotice(tx, String(bot.user_id), { kind: 'notice', code: 'bot_retuned', detail: { bot: id, ...(name ? { name } : {}), risk: bot.risk } });
          // The bot's owner may be another process: it reloads the new parameters once this commits.
          await notifyBot(tx, id);
          retuned.push(id);
        });
        await trading.engine.refresh(id);
      });
      trading.listCache.bump(String(bot.user_id));
    } catch (e) {
      deps.log?.error({ err: { message: String((e as Error)?.message ?? e) }, bot: id }, 'AI re-tuning failed');
    }
  }
  return { checked: due.length, retuned };
}

/** No position and no order in flight. */
const flat = (type: string, bot: WithFields<{ params: unknown; state: unknown }>) => !bot.fields.pending && !holdsBy(type, bot.params, bot.state);
