import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import type { BatchOperation, BotStatus, BuiltBotType } from '../../../../contract/bots.ts';
import { errorText } from '../../../lib/http.ts';
import { call, changed, failed, keepPage, loading, write } from '../../../shared/query.ts';
import { Page } from '../../../components/ui/page.tsx';
import { OfflineBanner } from '../../../shared/offline-banner.tsx';
import { LoadState } from '../../../components/ui/load-state.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import * as ui from '../../../components/ui/ui.css.ts';
import { botTitle, operationLabels, statusLabels } from '../labels.ts';
import { botTypeList, botTypes, starterTypes } from '../../../shared/bot-types.ts';
import { useExchangeNames } from '../../../shared/exchange-names.ts';
import { useTradingMode } from '../../../shared/use-trading-mode.ts';
import { isSimulatedCode } from '../../../../contract/rules.ts';
import { ModeSwitch } from './mode-switch.tsx';
import { BatchProgress } from './batch-progress.tsx';
import { StopChoice } from './stop-choice.tsx';
import { BotCard } from './bot-card.tsx';
import { Pager } from '../../../shared/pager.tsx';
import * as css from '../../../shared/blocks.css.ts';
import * as styles from './bots.css.ts';
import { livePoll, PRICED_WHILE_UP_MS } from '../../../shared/live/state.ts';

const PAGE_SIZE = 10;
const batchActions: BatchOperation[] = ['start', 'pause', 'resume', 'stop', 'delete'];

/** /strategy (现货): the trader's bots with filters, live figures, and batch operations with their progress. */
export function StrategyListPage() {
  const { t, i18n } = useLingui();
  const [exchange, setExchange] = useState<string | undefined>();
  const [status, setStatus] = useState<BotStatus | undefined>();
  const [type, setType] = useState<BuiltBotType | undefined>();
  const [page, setPage] = useState(1);
  const [selecting, setSelecting] = useState(false);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [asking, setAsking] = useState<BatchOperation | null>(null);
  // A batch stop asks what the bots holding coins do with them, as one bot's stop does.
  const [sell, setSell] = useState(false);
  const [task, setTask] = useState<string | null>(null);
  const [failure, setFailure] = useState('');

  const exchangeName = useExchangeNames();
  const bindings = useQuery(call('userApi', {}, { show: false }));
  const [mode, setMode] = useTradingMode(bindings.data);
  // Live figures every 5 s (with the live stream up: at each event, and the prices every 30 s), but not while
  // the trader picks bots or a batch runs.
  const every = selecting || task ? false : 5000;
  // Nothing is listed until it is known whether live or simulated bots are wanted: never both.
  const counts = useQuery({
    ...call('userBotCount', { ...(exchange ? { exchange } : {}), ...(type ? { type } : {}), mode: mode ?? 'live' }, { show: false }),
    enabled: mode !== undefined,
    refetchInterval: livePoll(every),
  });
  const bots = useQuery({
    ...call('userBotList', { page: String(page), page_size: String(PAGE_SIZE), ...(exchange ? { exchange } : {}), ...(status ? { status } : {}), ...(type ? { type } : {}), mode: mode ?? 'live' }),
    ...keepPage,
    enabled: mode !== undefined,
    refetchInterval: livePoll(every, { whileUp: PRICED_WHILE_UP_MS }),
  });

  const filter = (next: { exchange?: string | undefined; status?: BotStatus | undefined; type?: BuiltBotType | undefined }) => {
    if ('exchange' in next) setExchange(next.exchange);
    if ('status' in next) setStatus(next.status);
    if ('type' in next) setType(next.type);
    setPage(1);
    setSelected(new Set());
    changed('userBotBatch');
  };
  // Live and simulated bots never share a list: a new choice is a new list, from its first page.
  const chooseMode = (m: typeof mode & string) => {
    setMode(m);
    filter({ exchange: undefined });
  };
  const names = new Map((bots.data?.list ?? []).map((b) => [b.id, botTitle(b.symbol, b.name, i18n)]));

  const runBatch = async (action: BatchOperation) => {
    setAsking(null);
    setFailure('');
    try {
      const { task_id } = await write('userBotBatch', { action, ids: [...selected].join(','), ...(action === 'stop' && sell ? { sell: '1' as const } : {}) });
      setTask(task_id);
    } catch (e) {
      setFailure(errorText(e));
    }
  };
  const closeTask = () => {
    setTask(null);
    setSelecting(false);
    setSelected(new Set());
    changed('userBotBatch');
  };

  const c = counts.data;
  const statusChips: { value: BotStatus | undefined; label: string; n: number | undefined }[] = [
    { value: undefined, label: t`全部`, n: c?.total },
    ...(['running', 'paused', 'stopped'] as const).map((s) => ({ value: s, label: i18n._(statusLabels[s]), n: c?.[s] })),
  ];
  const list = bots.data?.list ?? [];
  const noBindings = bindings.data !== undefined && bindings.data.length === 0;

  return (
    <Page
      title={<Trans>现货</Trans>}
      root
      action={
        <Link to="/strategy/$type/{-$id}" params={{ type: starterTypes.first }} className={styles.createIcon} aria-label={t`创建策略`} data-testid="create-bot">
          +
        </Link>
      }
    >
      <OfflineBanner />
      <ModeSwitch mode={mode} onChange={chooseMode} />
      <fieldset className={css.chips} aria-label={t`状态`}>
        {statusChips.map((s) => (
          <button key={s.value ?? 'all'} type="button" className={css.chip} aria-pressed={status === s.value} onClick={() => filter({ status: s.value })}>
            {s.label}
            {s.n !== undefined ? ` ${s.n}` : ''}
          </button>
        ))}
      </fieldset>
      <fieldset className={css.chips} aria-label={t`策略类型`} data-testid="type-filter">
        <button type="button" className={css.chip} aria-pressed={type === undefined} onClick={() => filter({ type: undefined })}>
          <Trans>全部类型</Trans>
        </button>
        {botTypeList.map((b) => (
          <button key={b} type="button" className={css.chip} aria-pressed={type === b} onClick={() => filter({ type: b })}>
            {i18n._(botTypes[b].name)}
          </button>
        ))}
      </fieldset>
      {bindings.data && bindings.data.filter((b) => (mode === 'simulation') === isSimulatedCode(b.exchange)).length > 1 ? (
        <fieldset className={css.chips} aria-label={t`交易所`}>
          <button type="button" className={css.chip} aria-pressed={exchange === undefined} onClick={() => filter({ exchange: undefined })}>
            <Trans>全部交易所</Trans>
          </button>
          {bindings.data
            .filter((b) => (mode === 'simulation') === isSimulatedCode(b.exchange))
            .map((b) => (
              <button key={b.id} type="button" className={css.chip} aria-pressed={exchange === b.exchange} onClick={() => filter({ exchange: b.exchange })}>
                {exchangeName(b.exchange)}
              </button>
            ))}
        </fieldset>
      ) : null}
      <div className={css.toolbar}>
        {/* The way to the bill, logs, positions, calculator and the other bot types: chips, each a 44 px target. */}
        <nav className={styles.toolChips} aria-label={t`策略工具`} data-testid="strategy-tools">
          <Link to="/strategy/bill" className={css.chipLink}>
            <Trans>收益账单</Trans>
          </Link>
          <Link to="/strategy/logs" className={css.chipLink}>
            <Trans>策略日志</Trans>
          </Link>
          <Link to="/my/positions" className={css.chipLink}>
            <Trans>持仓</Trans>
          </Link>
          <Link to="/strategy/size" className={css.chipLink}>
            <Trans>仓位计算器</Trans>
          </Link>
          {/* A create link for every other type of the shared list (the first is the + above). */}
          {botTypeList
            .filter((type) => type !== starterTypes.first)
            .map((type) => (
              <Link key={type} to="/strategy/$type/{-$id}" params={{ type }} className={css.chipLink} data-testid={`new-${type}`}>
                {i18n._(botTypes[type].create)}
              </Link>
            ))}
          <Link to="/strategy/ai/{-$id}" params={{}} className={css.chipLink} data-testid="new-ai">
            <Trans>AI 策略</Trans>
          </Link>
        </nav>
        {list.length > 0 ? (
          <button
            type="button"
            className={css.smallButton}
            onClick={() => {
              setSelecting(!selecting);
              setSelected(new Set());
            }}
            data-testid="batch-toggle"
          >
            {selecting ? <Trans>完成</Trans> : <Trans>批量</Trans>}
          </button>
        ) : null}
      </div>
      {selecting ? (
        <div className={css.toolbar}>
          <label className={ui.muted}>
            <input
              type="checkbox"
              className={styles.selectAll}
              checked={list.length > 0 && list.every((b) => selected.has(b.id))}
              onChange={(e) => setSelected(e.target.checked ? new Set(list.map((b) => b.id)) : new Set())}
            />
            <Trans>全选本页</Trans>
          </label>
          <span className={ui.muted}>
            <Trans>已选 {selected.size}</Trans>
          </span>
        </div>
      ) : null}
      {failure ? (
        <div role="alert" className={ui.formError}>
          {failure}
        </div>
      ) : null}
      <LoadState loading={loading(bots)} failed={failed(bots)} failedText={<Trans>策略列表加载失败。</Trans>} onRetry={() => void bots.refetch()} />
      {bots.data && list.length === 0 ? (
        <section className={ui.card} data-testid="bots-empty">
          <p>{status || exchange || type ? <Trans>没有符合条件的策略。</Trans> : <Trans>还没有策略。创建一个马丁格尔策略，让它按计划买入、补仓、止盈。</Trans>}</p>
          {noBindings ? (
            <Link to="/bind" className={styles.bindLink}>
              <Trans>先绑定交易所（可用模拟盘）</Trans>
            </Link>
          ) : null}
          <Link to="/strategy/$type/{-$id}" params={{ type: starterTypes.first }} className={css.linkButton.primary}>
            <Trans>创建马丁格尔策略</Trans>
          </Link>
          <Link to="/strategy/$type/{-$id}" params={{ type: starterTypes.second }} className={styles.gridLink} data-testid="create-grid">
            <Trans>创建网格策略</Trans>
          </Link>
        </section>
      ) : null}
      <ul className={styles.botList[selecting ? 'selecting' : 'plain']} data-testid="bot-list">
        {list.map((bot) => (
          <BotCard
            key={bot.id}
            bot={bot}
            exchangeName={exchangeName(bot.exchange)}
            selecting={selecting}
            selected={selected.has(bot.id)}
            onSelect={(on) =>
              setSelected((s) => {
                const next = new Set(s);
                if (on) next.add(bot.id);
                else next.delete(bot.id);
                return next;
              })
            }
          />
        ))}
      </ul>
      {bots.data ? <Pager page={page} pageSize={PAGE_SIZE} total={bots.data.total} onPage={setPage} /> : null}
      {selecting ? (
        <div className={css.batchBar} role="toolbar" aria-label={t`批量操作`}>
          {batchActions.map((a) => (
            <button
              key={a}
              type="button"
              className={a === 'delete' ? css.dangerSmall : css.primarySmall}
              disabled={selected.size === 0}
              onClick={() => (a === 'delete' || a === 'stop' ? setAsking(a) : void runBatch(a))}
              data-testid={`batch-${a}`}
            >
              {i18n._(operationLabels[a])}
            </button>
          ))}
        </div>
      ) : null}
      <ConfirmDialog
        open={asking !== null}
        onOpenChange={(open) => !open && setAsking(null)}
        title={
          asking ? (
            <Trans>
              {i18n._(operationLabels[asking])} {selected.size} 个策略
            </Trans>
          ) : (
            ''
          )
        }
        description={asking === 'delete' ? <Trans>删除后无法恢复，运行中的策略需先停止。确定删除吗？</Trans> : <Trans>停止后不再自动补仓和止盈。持仓的策略持有的币怎么处理？</Trans>}
        confirmLabel={asking ? i18n._(operationLabels[asking]) : ''}
        onConfirm={() => asking && void runBatch(asking)}
      >
        {asking === 'stop' ? <StopChoice sell={sell} onSell={setSell} batch /> : null}
      </ConfirmDialog>
      {task ? <BatchProgress taskId={task} names={names} onClose={closeTask} /> : null}
    </Page>
  );
}
