import type { Db } from '../db/connect.ts';
import { exchangeById } from '../exchanges/catalog.ts';
import type { Trading } from '../trading.ts';
import { inputOf, search, type SearchWindow } from './ai.ts';
import { storedParams } from './bots.ts';
import { holdsBy } from '../../strategy/kit.ts';
import { notifyBot } from '../cluster/notify.ts';

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
  const due = await db
    .selectFrom('ai_bots as a')
    .innerJoin('bots as b', 'b.id', 'a.bot_id')
    .select(['b.id', 'b.user_id', 'b.type', 'b.exchange_id', 'b.symbol', 'b.params', 'a.risk'])
    .where('b.deleted_at', 'is', null)
    .where('b.status', 'in', ['running', 'paused'])
    .where('a.tuned_at', '<', new Date(Date.now() - everyMs))
    .orderBy('b.id')
    .execute();
  const retuned: string[] = [];
  for (const bot of due) {
    const id = String(bot.id);
    try {
      const before = await db.selectFrom('bots').select(['params', 'state']).where('id', '=', id).executeTakeFirstOrThrow();
      if (!flat(bot.type, before.params, before.state)) continue;
      const exchange = exchangeById(bot.exchange_id)?.code ?? '';
      const market = await trading.market(exchange, bot.symbol);
      const investment = (bot.params as { investment: string }).investment;
      const { result } = await search(trading, { market, exchange, symbol: bot.symbol, investment, risk: bot.risk, owner: String(bot.user_id), window: deps.window });
      const best = result.proposals.find((p) => p.configuration.type === bot.type);
      await trading.engine.serial(id, async () => {
        const now = await db.selectFrom('bots').select(['state', 'params', 'deleted_at']).where('id', '=', id).executeTakeFirstOrThrow();
        if (now.deleted_at || !flat(bot.type, now.params, now.state)) return; // it traded meanwhile: next time
        await db.transaction().execute(async (tx) => {
          await tx.updateTable('ai_bots').set({ tuned_at: new Date() }).where('bot_id', '=', id).execute();
          if (!best) return;
          const params = storedParams(bot.type, inputOf(best.configuration));
          if (JSON.stringify(params) === JSON.stringify(now.params)) return;
          await tx
            .updateTable('bots')
            .set({ params: JSON.stringify(params), updated_at: new Date() })
            .where('id', '=', id)
            .execute();
          await tx
            .insertInto('bot_actions')
            .values({ bot_id: id, kind: 'update', detail: JSON.stringify({ ai: 'retune', risk: bot.risk, score: String(best.score), params: JSON.stringify(params) }) })
            .execute();
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
const flat = (type: string, params: unknown, state: unknown) => !(state as { pending?: unknown }).pending && !holdsBy(type, params, state);
