import { useState } from 'react';
import { utcOffsetMinutes } from '../../../shared/time-zone.ts';
import { useNavigate } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { Trans, useLingui } from '@lingui/react/macro';
import type { BotLogLine } from '../../../../contract/bots.ts';
import { actionKinds, type ActionKind } from '../../../../contract/action-kinds.ts';
import { call, failed, keepPage, loading } from '../../../shared/query.ts';
import { Page } from '../../../components/ui/page.tsx';
import { OfflineBanner } from '../../../shared/offline-banner.tsx';
import { LoadState } from '../../../components/ui/load-state.tsx';
import * as ui from '../../../components/ui/ui.css.ts';
import { ActionList } from './action-list.tsx';
import { Pager } from '../../../shared/pager.tsx';
import { actionLabels, botTitle } from '../labels.ts';
import * as css from '../../../shared/blocks.css.ts';
import * as styles from './bots.css.ts';

const PAGE_SIZE = 20;

/**
 * /strategy/logs: the log of every bot of the trader's, newest first, a page at a time
 * from the server, filtered by bot (?id= picks one), action kind and days of the phone's own time zone.
 */
export function AllLogsPage({ id }: { id?: string | undefined }) {
  const { t, i18n } = useLingui();
  const navigate = useNavigate();
  const [page, setPage] = useState(1);
  const [kind, setKind] = useState<ActionKind | ''>('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const bots = useQuery(call('userBotList', { page: '1', page_size: '100' }));
  const filter = {
    page: String(page),
    page_size: String(PAGE_SIZE),
    ...(id ? { bot: id } : {}),
    ...(kind ? { kind } : {}),
    ...(from ? { from } : {}),
    ...(to ? { to } : {}),
    ...(from || to ? { tz: String(utcOffsetMinutes()) } : {}),
  };
  const backwards = from !== '' && to !== '' && from > to;
  const actions = useQuery({ ...call('userActions', filter, { show: false }), ...keepPage, enabled: !backwards });
  const reset = () => setPage(1);

  return (
    <Page title={<Trans>策略日志</Trans>}>
      <OfflineBanner />
      <section className={ui.card} aria-label={t`筛选`}>
        <label className={ui.field}>
          <span className={ui.label}>
            <Trans>策略</Trans>
          </span>
          <select
            className={css.select}
            value={id ?? ''}
            data-testid="logs-bot"
            onChange={(e) => {
              reset();
              void navigate({ to: '/strategy/logs', search: e.target.value ? { id: e.target.value } : {}, replace: true });
            }}
          >
            <option value="">{t`全部策略`}</option>
            {bots.data?.list.map((b) => (
              <option key={b.id} value={b.id}>
                {botTitle(b.symbol, b.name, i18n)}
              </option>
            ))}
          </select>
        </label>
        <label className={ui.field}>
          <span className={ui.label}>
            <Trans>类型</Trans>
          </span>
          <select
            className={css.select}
            value={kind}
            data-testid="logs-kind"
            onChange={(e) => {
              reset();
              setKind(e.target.value as ActionKind | '');
            }}
          >
            <option value="">{t`全部类型`}</option>
            {actionKinds.map((k) => (
              <option key={k} value={k}>
                {i18n._(actionLabels[k])}
              </option>
            ))}
          </select>
        </label>
        <div className={css.grid2}>
          <label className={styles.dateField}>
            <span className={ui.label}>
              <Trans>开始日期</Trans>
            </span>
            <input
              type="date"
              className={styles.dateInput}
              value={from}
              max={to || undefined}
              data-testid="logs-from"
              onChange={(e) => {
                reset();
                setFrom(e.target.value);
              }}
            />
          </label>
          <label className={styles.dateField}>
            <span className={ui.label}>
              <Trans>结束日期</Trans>
            </span>
            <input
              type="date"
              className={styles.dateInput}
              value={to}
              min={from || undefined}
              data-testid="logs-to"
              onChange={(e) => {
                reset();
                setTo(e.target.value);
              }}
            />
          </label>
        </div>
        {backwards ? (
          <p role="alert" className={css.errorLine}>
            <Trans>开始日期不能晚于结束日期。</Trans>
          </p>
        ) : null}
        {kind || from || to ? (
          <button
            type="button"
            className={css.smallButton}
            onClick={() => {
              reset();
              setKind('');
              setFrom('');
              setTo('');
            }}
          >
            <Trans>清除筛选</Trans>
          </button>
        ) : null}
      </section>
      <section className={ui.card}>
        <LoadState
          loading={!backwards && loading(actions)}
          failed={failed(actions)}
          failedText={actions.error instanceof Error && actions.error.message ? actions.error.message : <Trans>日志加载失败。</Trans>}
          onRetry={() => void actions.refetch()}
        />
        {actions.data && actions.data.list.length === 0 ? (
          <p className={ui.muted} data-testid="logs-empty">
            {id || kind || from || to ? <Trans>没有符合筛选的日志。</Trans> : <Trans>还没有策略，也就没有日志。</Trans>}
          </p>
        ) : null}
        {actions.data ? (
          <p className={styles.cardMeta} data-testid="logs-total">
            <Trans>共 {actions.data.total} 条</Trans>
          </p>
        ) : null}
        {actions.data ? (
          <ActionList
            actions={actions.data.list}
            botOf={(a) => {
              const line = a as BotLogLine;
              return botTitle(line.symbol, line.botName, i18n);
            }}
            symbolOf={(a) => (a as BotLogLine).symbol}
            typeOf={(a) => (a as BotLogLine).type}
          />
        ) : null}
        {actions.data ? <Pager page={page} pageSize={PAGE_SIZE} total={actions.data.total} onPage={setPage} /> : null}
      </section>
    </Page>
  );
}

/** This phone's time zone now, minutes east of UTC (UTC+8: 480): the log's days are the trader's, not UTC's. */
