import { msg } from '@lingui/core/macro';
import type { I18n, MessageDescriptor } from '@lingui/core';
import type { Notice } from '../../../contract/notices.ts';
import { dateTime } from '../../shared/format.ts';
import { refusalText } from '../../shared/refusal-words.ts';

/** The device of a new login, by its terminal code (contract/envelope.ts Terminal). */
const terminals: Record<string, MessageDescriptor> = { '1': msg`浏览器`, '2': msg`iOS 设备`, '3': msg`Android 设备`, '4': msg`钱包` };
/** What a security change was. */
const changes: Record<string, MessageDescriptor> = {
  login_password: msg`登录密码已修改`,
  payment_password: msg`支付密码已设置或修改`,
  two_factor_on: msg`两步验证已开启`,
  two_factor_off: msg`两步验证已关闭`,
};

/** The bot a notice is about: its name (stored with the notice), else its number. */
function botName(d: Record<string, string | undefined>, i18n: I18n): string {
  return d.name ?? i18n._(msg`策略 #${d.bot ?? ''}`);
}

/** A notice's title and text from its code and figures (the server stores facts; the app words them). */
export function noticeWords(n: Notice, i18n: I18n): { title: string; text: string } {
  const d = n.detail;
  switch (n.code) {
    case 'fuel_low':
      return { title: i18n._(msg`燃料不足`), text: i18n._(msg`燃料只剩 ${d.fuel ?? ''}，用完后运行中的策略会自动暂停，请及时补充。`) };
    case 'fuel_empty':
      return { title: i18n._(msg`燃料已用完`), text: i18n._(msg`${d.paused ?? '0'} 个运行中的策略已暂停。补充燃料后可恢复运行。`) };
    case 'bot_paused':
      return { title: i18n._(msg`策略已暂停`), text: i18n._(msg`策略「${botName(d, i18n)}」的订单被交易所拒绝，已自动暂停：${refusalText(d.reason ?? '', i18n)}`) };
    case 'level_refused': {
      const side = d.side === 'sell' ? i18n._(msg`卖出`) : i18n._(msg`买入`);
      return {
        title: i18n._(msg`挂单被拒绝`),
        text: i18n._(msg`策略「${botName(d, i18n)}」在 ${d.price ?? ''} 的${side}挂单被交易所拒绝：${refusalText(d.reason ?? '', i18n)}。价格到达这一价位时暂按市价成交，约 5 分钟后重新挂单。`),
      };
    }
    case 'api_key_invalid':
      return {
        title: i18n._(msg`API 密钥失效`),
        text: i18n._(msg`交易所拒绝了策略「${botName(d, i18n)}」使用的 API 密钥，策略已暂停。请检查密钥的交易权限和 IP 白名单，或重新绑定。`),
      };
    case 'cycle_closed': {
      const name = botName(d, i18n);
      const cycle = d.cycle ?? '';
      const profit = d.profit ?? '';
      if (d.how === 'stop_loss') return { title: i18n._(msg`触发止损`), text: i18n._(msg`策略「${name}」第 ${cycle} 轮触发止损平仓，收益 ${profit}。`) };
      if (d.how === 'take_profit') return { title: i18n._(msg`止盈完成`), text: i18n._(msg`策略「${name}」第 ${cycle} 轮止盈完成，收益 ${profit}。`) };
      return { title: i18n._(msg`本轮已完成`), text: i18n._(msg`策略「${name}」第 ${cycle} 轮已平仓，收益 ${profit}。`) };
    }
    case 'last_add_filled':
      return {
        title: i18n._(msg`最后一次加仓已成交`),
        text: i18n._(msg`策略「${botName(d, i18n)}」本轮已加满 ${d.entries ?? ''} 次，均价 ${d.average ?? ''}。之后不再补仓，请留意风险。`),
      };
    case 'range_edge': {
      const name = botName(d, i18n);
      const price = d.price ?? '';
      if (d.side === 'high')
        return { title: i18n._(msg`网格已到区间上限`), text: i18n._(msg`策略「${name}」的价格已到区间上限 ${price}，持币已全部卖出，价格回落前不再交易。可以调整区间，或继续等待。`) };
      return { title: i18n._(msg`网格已到区间下限`), text: i18n._(msg`策略「${name}」的价格已到区间下限 ${price}，所有买单已成交，价格回升前不再买入。请留意风险，可以调整区间或设置止损。`) };
    }
    case 'order_lost':
      return {
        title: i18n._(msg`订单查不到，策略已暂停`),
        text: i18n._(
          msg`策略「${botName(d, i18n)}」发出的订单 ${d.order ?? ''} 在交易所查了多次都查不到，策略已暂停，不会重复下单。系统会继续查找；查到成交会计入账目。请在交易所核对该订单后再恢复策略。`,
        ),
      };
    case 'fill_unbooked':
      return {
        title: i18n._(msg`成交与账目不符，策略已暂停`),
        text: i18n._(msg`策略「${botName(d, i18n)}」挂在交易所的订单 ${d.order ?? ''} 已成交，但策略的账目里没有能对应它的订单，策略已暂停，不再下单。请在交易所核对这笔成交后再恢复策略。`),
      };
    case 'balance_short':
      return {
        title: i18n._(msg`账户余额与策略持仓不符`),
        text: i18n._(
          msg`策略「${botName(d, i18n)}」按账目持有 ${d.held ?? ''} ${d.coin ?? ''}，交易所账户里只有 ${d.balance ?? ''}，策略已暂停，以免卖出不存在或不属于它的币。请在交易所核对（是否手动卖出或提走），补足后再恢复。`,
        ),
      };
    case 'account_unreachable':
      return {
        title: i18n._(msg`交易所账户无法连接`),
        text: i18n._(msg`${d.name ?? d.exchange ?? ''} 账户的下单请求连续 ${d.failures ?? ''} 次没有回应。相关策略暂停开仓和补仓，止盈止损照常；恢复连接并核对账户后自动继续。`),
      };
    case 'account_reachable':
      return { title: i18n._(msg`交易所账户已恢复连接`), text: i18n._(msg`${d.name ?? d.exchange ?? ''} 账户已核对无误，相关策略恢复开仓。`) };
    case 'price_stale': {
      const since = dateTime(d.since, i18n.locale);
      return {
        title: i18n._(msg`暂无最新行情`),
        text: i18n._(msg`${d.name ?? d.exchange ?? ''} 自 ${since} 起没有给出 ${d.symbol ?? ''} 的最新价格。这个交易对上的策略暂停开仓和补仓，止盈止损照常；价格恢复并核对账户后自动继续。`),
      };
    }
    case 'price_back':
      return { title: i18n._(msg`行情已恢复`), text: i18n._(msg`${d.name ?? d.exchange ?? ''} 的 ${d.symbol ?? ''} 价格已恢复，账户已核对，相关策略恢复开仓。`) };
    case 'exchange_down':
      return { title: i18n._(msg`交易所无响应`), text: i18n._(msg`${d.name ?? d.exchange ?? ''} 暂时无法连接，这期间相关策略不会下单；恢复后自动继续。`) };
    case 'exchange_up':
      return { title: i18n._(msg`交易所已恢复`), text: i18n._(msg`${d.name ?? d.exchange ?? ''} 已恢复连接，相关策略继续运行。`) };
    case 'bot_retuned':
      return { title: i18n._(msg`策略已重新调参`), text: i18n._(msg`AI 策略「${botName(d, i18n)}」按最新行情换了一组参数，之后按新参数运行。`) };
    case 'withdrawal_failed':
      return { title: i18n._(msg`提现失败`), text: i18n._(msg`提现 ${d.amount ?? ''} USDT 到 ${d.address ?? ''} 未能完成，金额已退回余额。`) };
    case 'security_login': {
      const device = i18n._(terminals[d.terminal ?? ''] ?? msg`浏览器`);
      const ip = d.ip ?? '';
      return { title: i18n._(msg`新设备登录`), text: i18n._(msg`你的账户在一台新设备上登录（${device}，IP ${ip}）。如果不是你本人，请立即修改登录密码并开启两步验证。`) };
    }
    case 'security_change': {
      const change = i18n._(changes[d.change ?? ''] ?? msg`安全设置`);
      // A change that only adds protection (a first payment password, 2FA turned on) locks nothing.
      if (!d.until) return { title: i18n._(msg`安全设置已变更`), text: i18n._(msg`${change}。如果不是你本人操作，请立即修改登录密码。`) };
      const until = dateTime(d.until, i18n.locale);
      return { title: i18n._(msg`安全设置已变更`), text: i18n._(msg`${change}。为保护资金，提现锁定至 ${until}。如果不是你本人操作，请立即修改登录密码。`) };
    }
    case 'security_address': {
      const address = d.address ?? '';
      const until = dateTime(d.until, i18n.locale);
      return { title: i18n._(msg`新提现地址`), text: i18n._(msg`已记录新的提现地址 ${address}，${until} 之后才能向它提现。如果不是你本人操作，请立即修改登录密码和支付密码。`) };
    }
    case 'security_withdraw': {
      const amount = d.amount ?? '';
      const address = d.address ?? '';
      return { title: i18n._(msg`提现申请`), text: i18n._(msg`已申请提现 ${amount} USDT 到 ${address}。如果不是你本人操作，请立即修改登录密码和支付密码。`) };
    }
    default:
      return {
        title: i18n._(msg`通知`),
        text: Object.entries(d)
          .map(([k, v]) => `${k}: ${v}`)
          .join(', '),
      };
  }
}
