import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { Field } from '../../../components/ui/field.tsx';
import * as ui from '../../../components/ui/ui.css.ts';
import { price } from '../../../shared/format.ts';
import type { BotTarget } from '../use-bot-target.ts';
import { useExchangeNames } from '../../../shared/exchange-names.ts';
import * as css from '../../../shared/blocks.css.ts';
import { failed } from '../../../shared/query.ts';

/** The exchange, the pair (both fixed once the bot exists), the price now and the optional name. */
export function BotTargetFields({ target, id }: { target: BotTarget; id: string | undefined }) {
  const { i18n } = useLingui();
  const exchangeName = useExchangeNames();
  const { bindings, bot, binding, symbols, market } = target;
  return (
    <section className={ui.card}>
      <div className={ui.field}>
        <label className={ui.label} htmlFor="bot-exchange">
          <Trans>交易所</Trans>
        </label>
        <select id="bot-exchange" className={css.select} value={target.exchangeId ?? ''} disabled={id !== undefined} onChange={(e) => target.setExchangeId(Number(e.target.value))}>
          {(bindings.data ?? []).map((b) => (
            <option key={b.id} value={b.exchangeId}>
              {exchangeName(b.exchange)}
            </option>
          ))}
          {id && bot.data && !binding ? <option value={bot.data.exchangeId}>{exchangeName(bot.data.exchange)}</option> : null}
        </select>
      </div>
      <div className={ui.field}>
        <label className={ui.label} htmlFor="bot-symbol">
          <Trans>交易对</Trans>
        </label>
        <select id="bot-symbol" className={css.select} value={target.symbol} disabled={id !== undefined} onChange={(e) => target.setSymbol(e.target.value)}>
          {(symbols.data ?? [{ symbol: target.symbol }]).map((s) => (
            <option key={s.symbol} value={s.symbol}>
              {s.symbol}
            </option>
          ))}
        </select>
      </div>
      <p className={css.row}>
        <span className={ui.muted}>
          <Trans>最新价</Trans>
        </span>
        <strong data-testid="market-price">{market ? price(market.price, i18n.locale, market.tickSize) : failed(symbols) ? '—' : '…'}</strong>
      </p>
      {failed(symbols) ? (
        <p role="alert" className={css.errorLine}>
          <Trans>行情加载失败，无法校验参数。</Trans>{' '}
          <button type="button" className={ui.smallButton} onClick={() => void symbols.refetch()}>
            <Trans>重试</Trans>
          </button>
        </p>
      ) : null}
      <Field label={<Trans>名称（可选）</Trans>} name="name" maxLength={32} value={target.name} onChange={(e) => target.setName(e.target.value)} />
    </section>
  );
}

/** What the create screens show before the form: no exchange bound yet, or the bot runs and cannot be edited. */
export function BotFormNotices({ target, id }: { target: BotTarget; id: string | undefined }) {
  return (
    <>
      {target.missing ? (
        <section className={ui.card} data-testid="bot-not-found">
          <p>
            <Trans>没有找到这个策略：它可能已被删除，或地址有误。</Trans>
          </p>
          <Link to="/strategy" className={css.linkButton.primary}>
            <Trans>返回策略列表</Trans>
          </Link>
        </section>
      ) : null}
      {target.noBinding ? (
        <section className={ui.card} data-testid="need-binding">
          <p>
            <Trans>创建策略前需要先绑定一个交易所的 API。没有真实账户也可以绑定模拟盘。</Trans>
          </p>
          <Link to="/bind" className={css.linkButton.primary}>
            <Trans>去绑定</Trans>
          </Link>
        </section>
      ) : null}
      {target.running ? (
        <section className={ui.formError} role="alert" data-testid="running-no-edit">
          <Trans>运行中的策略不能编辑，请先暂停或停止。</Trans>{' '}
          <Link to="/strategy/detail/$id" params={{ id: id! }}>
            <Trans>返回策略</Trans>
          </Link>
        </section>
      ) : null}
    </>
  );
}

/** The end of a create or edit form: the server's refusal, the reminder to fix the red fields, save. */
export function BotFormFooter({ form, editing, disabled }: { form: { failure: string; submitted: boolean; invalid: boolean; busy: boolean }; editing: boolean; disabled: boolean }) {
  return (
    <>
      {form.failure ? (
        <div role="alert" className={ui.formError} data-testid="form-failure">
          {form.failure}
        </div>
      ) : null}
      {form.submitted && form.invalid ? (
        <div role="alert" className={ui.formError}>
          <Trans>请修正标红的参数。</Trans>
        </div>
      ) : null}
      <button type="submit" className={ui.button.primary} disabled={disabled || form.busy} data-testid="save-bot">
        {form.busy ? <Trans>保存中…</Trans> : editing ? <Trans>保存修改</Trans> : <Trans>创建策略</Trans>}
      </button>
    </>
  );
}
