import type { FastifyInstance } from 'fastify';
import { PAGE_SIZE_DEFAULT } from '../../../contract/rules.ts';
import type { Translate } from '../../i18n.ts';
import { billGroup, billLogs, billSummary } from '../../services/bills.ts';
import { botActions, botDetail, botInfo, botPositions, countBots, listBots, openPositions, positionAdds } from '../../services/bot-queries.ts';
import { createBot, operateBot, startBatch, updateBot, type BotsDeps } from '../../services/bots.ts';
import { fail } from '../../errors.ts';
import { backtest } from '../../services/backtests.ts';
import { aiSearch, type SearchWindow } from '../../services/ai.ts';
import { DEFAULT_AI_QUEUE_MAX, SearchQueue } from '../../services/ai-queue.ts';
import { allActions } from '../../services/bot-log.ts';
import { setShare, shareOf } from '../../services/bot-share.ts';
import { pnlHistory } from '../../services/pnl.ts';
import { portfolio } from '../../services/portfolio.ts';
import { findOwnBatchTask } from '../../store/batch-tasks.ts';
import { JsonText } from '../envelope.ts';
import { registerCalls } from '../route.ts';

/** How long a cached bot list page serves (its floating PnL is at the price of then). */
const LIST_FRESH_MS = 5_000;

/** The bot calls (docs/product.md §7), the profit bill, the all-bots log, PnL over time and the portfolio. */
export function botRoutes(app: FastifyInstance, deps: BotsDeps & { aiQueueMax?: number; aiSearchSlots?: number; aiSearchWindow?: SearchWindow }, translate: Translate): void {
  const { db, trading } = deps;
  const pageOf = (q: { page?: number | undefined; page_size?: number | undefined }) => ({ page: q.page ?? 1, pageSize: q.page_size ?? PAGE_SIZE_DEFAULT });
  // The AI bot's parameter search, in a worker thread.
  // One search per trader at a time, in a bounded line; the screen asks for its place while it waits.
  // The line is kept in the database: one search per trader, and the same place, whichever process is asked.
  // It hands searches to the worker pool in its own order, as many at once as the pool has workers (`aiSearchSlots`, default 1).
  const searches = new SearchQueue(db, deps.aiQueueMax ?? DEFAULT_AI_QUEUE_MAX, { slots: deps.aiSearchSlots ?? 1 });
  registerCalls(app, db, {
    userBotCreate: async ({ session, body, lang }) => botInfo(db, trading, session.userId, await createBot(deps, session.userId, body, lang)),
    // A backtest of the configuration on the create screen, before the bot is saved.
    strategyBacktest: ({ session, body }) => backtest(trading, session.userId, body),
    strategyAiSearch: ({ session, body }) => searches.run(session.userId, (progress) => aiSearch(trading, session.userId, body, deps.aiSearchWindow, progress)),
    strategyAiQueue: ({ session }) => searches.placeOf(session.userId),
    userBotUpdate: async ({ session, query, body }) => {
      await updateBot(deps, session.userId, query.id, body);
      return botInfo(db, trading, session.userId, query.id);
    },
    userBotInfo: async ({ session, query }) => botInfo(db, trading, session.userId, query.id),
    userBotDetail: async ({ session, query }) => botDetail(db, trading, session.userId, query.id),
    userBotList: async ({ session, query }) => {
      // The cards' floating PnL, ROI and APR move with the price: a cached page serves for 5 s at most.
      const cached = trading.listCache.lookup(
        session.userId,
        `list|${Math.floor(Date.now() / LIST_FRESH_MS)}|${query.page}|${query.page_size}|${query.exchange}|${query.status}|${query.mode}|${query.type}`,
      );
      // The cached answer is kept serialised: a poll that finds nothing new costs no JSON work.
      if ('hit' in cached) return cached.hit as never;
      const page = await listBots(db, trading, session.userId, { ...pageOf(query), exchange: query.exchange, status: query.status, mode: query.mode, type: query.type });
      const text = new JsonText(page);
      cached.store(text);
      return text as never;
    },
    userBotCount: async ({ session, query }) => countBots(db, session.userId, query.exchange, query.mode, query.type),
    // A share that is no decimal answers as one out of 1-100 does: the trader learns the rule, not the field.
    userBotOperation: {
      fieldCodes: { share: 'StrategyCloseShareInvalid' },
      handle: async ({ session, query }) => {
        const id = await operateBot(deps, session.userId, query.id, query.action, { amount: query.amount, sell: query.sell === '1', share: query.share, baseAmount: query.baseAmount });
        return id === null ? null : botInfo(db, trading, session.userId, id);
      },
    },
    userBotBatch: async ({ session, query, lang }) => ({
      task_id: await startBatch(deps, session.userId, query.action, query.ids.split(','), (code) => translate(lang, code), query.sell === '1'),
    }),
    userBotBatchStatus: async ({ session, query }) => {
      const task = await findOwnBatchTask(db, { id: query.task_id, userId: session.userId });
      if (!task) throw fail('BatchTaskNotFound');
      return { task_id: task.id, action: task.action as 'start', status: task.status, total: task.ids.length, done: task.results.length, results: task.results };
    },
    userBotPositions: async ({ session, query }) => {
      const { page, pageSize } = pageOf(query);
      return botPositions(db, session.userId, query.id, page, pageSize);
    },
    userPositionAdds: async ({ session, query }) => positionAdds(db, session.userId, query.id, query.cycle),
    userBotActions: async ({ session, query }) => {
      const { page, pageSize } = pageOf(query);
      return botActions(db, session.userId, query.id, page, pageSize);
    },
    userPositions: async ({ session, query }) => {
      const { page, pageSize } = pageOf(query ?? {});
      return openPositions(db, trading, session.userId, page, pageSize);
    },
    // Every bot's log with filters, PnL over time, equity across accounts.
    userActions: {
      fieldCodes: { from: 'InvalidDateRange', to: 'InvalidDateRange' },
      handle: async ({ session, query }) => allActions(db, session.userId, { ...pageOf(query), bot: query.bot, kind: query.kind, from: query.from, to: query.to, tz: query.tz }),
    },
    userPnl: async ({ session, query }) => pnlHistory(db, trading, session.userId, { id: query.id, mode: query.mode, days: Number(query.days ?? 30), utcOffset: query.tz ?? 0 }),
    userPortfolio: async ({ session }) => portfolio(db, trading, session.userId),
    userBill: async ({ session, query }) => billSummary(db, trading, session.userId, Date.now(), query.mode),
    userBillLogs: async ({ session, query }) => {
      const { page, pageSize } = pageOf(query);
      return billLogs(db, session.userId, page, pageSize, query.mode);
    },
    userBillGroup: async ({ session, query }) => billGroup(db, session.userId, Date.now(), query.mode),
    // Whether the strategy rank shows the bot's parameters: its owner's switch, at any time.
    userBotShare: ({ session, query }) => shareOf(db, session.userId, query.id),
    userBotShareSet: ({ session, body }) => setShare(db, session.userId, body.id, body.shareRules),
  });
}
