import type { AlertKind } from '../../contract/alert-kinds.ts';
import type { Language } from '../../contract/envelope.ts';
import type { StreamedEvent } from '../../contract/live.ts';
import type { Urgency } from '../push/send.ts';
import { exchangeByCode } from '../exchanges/catalog.ts';

/**
 * Which live events become alerts when the app is closed, and how they read. Only what a trader acts on:
 * a fill (batched per bot), a closed cycle, a bot paused by the engine (not by the trader's own tap),
 * money arriving or a withdrawal settled, security notices, an exchange down or back. Balance changes,
 * placed orders and the trader's own start/stop are on screen and not worth a buzz.
 */
export interface AlertPlan {
  kind: AlertKind;
  /** Alerts of one user and topic are one row in the outbox: a burst of fills of one bot is one alert. */
  topic: string;
  /** Fills of a topic go out at most once a minute. */
  batched: boolean;
  urgency: Urgency;
  /** How long a push service keeps it for a phone that is off: money and security for a day, fills for an hour. */
  ttlSeconds: number;
  data: Record<string, string>;
}

const day = 86_400;

/** The alert an event makes, or null. */
export function planOf(e: StreamedEvent): AlertPlan | null {
  switch (e.kind) {
    case 'order':
      if (e.status !== 'filled' && e.status !== 'partial') return null;
      return { kind: 'fills', topic: `fills:${e.bot}`, batched: true, urgency: 'low', ttlSeconds: 3600, data: { bot: e.bot, side: e.side, symbol: e.symbol ?? '' } };
    case 'cycle':
      return { kind: 'cycles', topic: `cycle:${e.bot}:${e.cycle}`, batched: false, urgency: 'normal', ttlSeconds: day, data: { bot: e.bot, profit: e.profit, how: e.how } };
    case 'bot':
      // A pause the trader tapped has no reason; the engine's pauses (a refused order, fuel, a key) have one.
      if (e.status !== 'paused' || !e.reason) return null;
      return { kind: 'pauses', topic: `paused:${e.bot}`, batched: false, urgency: 'high', ttlSeconds: day, data: { bot: e.bot, reason: e.reason } };
    case 'deposit':
      return { kind: 'money', topic: `deposit:${e.deposit}`, batched: false, urgency: 'normal', ttlSeconds: day, data: { amount: e.amount } };
    case 'withdrawal':
      if (e.status !== 'confirmed' && e.status !== 'failed') return null;
      return { kind: 'money', topic: `withdrawal:${e.withdrawal}`, batched: false, urgency: 'high', ttlSeconds: day, data: { status: e.status } };
    case 'notice': {
      const kind = noticeKinds[e.code];
      if (!kind) return null;
      return { kind, topic: `notice:${e.notice}`, batched: false, urgency: 'high', ttlSeconds: day, data: { code: e.code, ...(e.bot ? { bot: e.bot } : {}) } };
    }
    case 'exchange':
      return { kind: 'exchange', topic: `exchange:${e.exchange}`, batched: false, urgency: 'normal', ttlSeconds: 3600, data: { exchange: e.exchange, state: e.state } };
    default:
      return null;
  }
}

/** Notices that alert by themselves (a bot's pause and a failed withdrawal alert through their own events). */
const noticeKinds: Record<string, AlertKind> = {
  security_login: 'security',
  security_change: 'security',
  security_withdraw: 'security',
  security_address: 'security',
  fuel_low: 'money',
  fuel_empty: 'money',
  // The last add of a cycle filled: nothing more averages the price down.
  last_add_filled: 'cycles',
  // A grid reached an edge of its range: it trades no more that way until the price comes back.
  range_edge: 'cycles',
  // A resting order refused by the exchange (a grid level's, a martin or DCA add or take profit): that price trades at market for a while.
  level_refused: 'cycles',
  // A trader's exchange account out of reach (its order calls failed in a row), and back.
  account_unreachable: 'exchange',
  account_reachable: 'exchange',
  // A pair without a fresh price from its exchange (its bots open nothing), and its price back.
  price_stale: 'exchange',
  price_back: 'exchange',
};

/** What an alert says, in the trader's language; `bot` is the bot's name and symbol when it is about one. */
export function wordsOf(kind: string, data: Record<string, string>, count: number, lang: Language, bot?: { name: string; symbol: string }): { title: string; body: string; path: string } {
  const zh = lang === 'zh';
  const botTitle = bot ? `${bot.name} · ${bot.symbol}` : zh ? '策略' : 'Bot';
  const botPath = data.bot ? `/strategy/detail/${data.bot}` : '/strategy';
  switch (kind) {
    case 'fills':
      return { title: botTitle, body: zh ? `${count} 笔成交` : `${count} ${count === 1 ? 'fill' : 'fills'}`, path: botPath };
    case 'cycles': {
      if (data.code === 'last_add_filled') return { title: botTitle, body: zh ? '最后一次加仓已成交，之后不再补仓' : 'Last add filled: no more averaging down', path: botPath };
      // Which edge, at what price, the notices screen says (the notice event carries its code only).
      if (data.code === 'level_refused')
        return { title: botTitle, body: zh ? '一个挂单被交易所拒绝，这一价位暂按市价成交' : 'The exchange refused a resting order: that price trades at market for now', path: botPath };
      if (data.code === 'range_edge') return { title: botTitle, body: zh ? '价格已到网格区间边缘，这一方向不再交易' : 'At an edge of its grid range: no more trades that way', path: botPath };
      const sign = data.profit?.startsWith('-') ? '' : '+';
      const how = { take_profit: zh ? '止盈' : 'take profit', stop_loss: zh ? '止损' : 'stop loss' }[data.how ?? ''];
      const said = how ? (zh ? `（${how}）` : ` (${how})`) : '';
      return { title: botTitle, body: zh ? `本轮完成${said}，收益 ${sign}${data.profit}` : `Cycle closed${said}: ${sign}${data.profit}`, path: botPath };
    }
    case 'pauses':
      return { title: botTitle, body: zh ? `已暂停：${pauseWords(data.reason ?? '', lang)}` : `Paused: ${pauseWords(data.reason ?? '', lang)}`, path: botPath };
    case 'money':
      if (data.amount) return { title: zh ? '充值到账' : 'Deposit credited', body: `${data.amount} USDT`, path: '/my/asset' };
      if (data.status) {
        const ok = data.status === 'confirmed';
        return {
          title: zh ? (ok ? '提现已完成' : '提现失败，已退回') : ok ? 'Withdrawal completed' : 'Withdrawal failed, refunded',
          body: zh ? '点按查看详情' : 'Tap for details',
          path: '/my/withdraw',
        };
      }
      return {
        title: zh ? '燃料' : 'Fuel',
        body: data.code === 'fuel_empty' ? (zh ? '燃料已用完，实盘策略已暂停' : 'Fuel ran out: live bots paused') : zh ? '燃料不足，请及时充值' : 'Fuel is low: top up soon',
        path: '/my/asset',
      };
    case 'security':
      return { title: zh ? '安全提醒' : 'Security', body: securityWords(data.code ?? '', lang), path: '/notice/list' };
    case 'exchange':
      if (data.code === 'account_unreachable')
        return { title: zh ? '交易所账户无法连接' : 'Exchange account unreachable', body: zh ? '策略暂停开仓，止盈止损照常' : 'Bots open nothing; exits still go', path: '/notice/list' };
      // The notice event carries its code only: which pair, the notices screen says.
      if (data.code === 'price_stale')
        return { title: zh ? '暂无交易所最新行情' : 'No fresh price from the exchange', body: zh ? '相关策略暂停开仓，止盈止损照常' : 'Its bots open nothing; exits still go', path: '/notice/list' };
      if (data.code === 'price_back') return { title: zh ? '交易所行情已恢复' : 'Exchange prices are back', body: zh ? '相关策略恢复开仓' : 'Its bots open again', path: '/notice/list' };
      if (data.code === 'account_reachable') return { title: zh ? '交易所账户已恢复连接' : 'Exchange account reachable again', body: zh ? '策略继续运行' : 'Bots go on', path: '/notice/list' };
      return {
        title: exchangeByCode(data.exchange ?? '')?.name ?? data.exchange ?? '',
        body: data.state === 'down' ? (zh ? '交易所无响应，相关策略暂停下单' : 'Not answering: its bots wait') : zh ? '交易所已恢复' : 'Answering again',
        path: '/strategy',
      };
    default:
      return { title: 'QuantBot', body: zh ? '测试提醒：通知工作正常' : 'Test alert: notifications work', path: '/my/notifications' };
  }
}

function pauseWords(reason: string, lang: Language): string {
  const zh = lang === 'zh';
  if (reason === 'fuel') return zh ? '燃料用完' : 'out of fuel';
  if (reason === 'order_lost') return zh ? '交易所查不到已发出的订单' : 'the exchange cannot find an order it was sent';
  if (reason === 'balance_short') return zh ? '交易所账户里的币少于策略的持仓' : 'the account holds less of the coin than the bot';
  if (reason === 'fill_unbooked') return zh ? '交易所的一笔成交与策略账目对不上' : 'a fill on the exchange matches no order of the bot’s books';
  if (/api key|apikey|key refused/i.test(reason)) return zh ? 'API 密钥被交易所拒绝' : 'API key refused by the exchange';
  return zh ? '下单被拒绝' : 'an order was refused';
}

function securityWords(code: string, lang: Language): string {
  const zh = lang === 'zh';
  const words: Record<string, [string, string]> = {
    security_login: ['新设备登录了你的账户', 'New device signed in to your account'],
    security_change: ['账户安全设置已更改', 'Your security settings changed'],
    security_withdraw: ['已提交提现申请', 'A withdrawal was requested'],
    security_address: ['新增了提现地址', 'A withdrawal address was added'],
  };
  const w = words[code] ?? ['账户安全提醒', 'Account security notice'];
  return zh ? w[0] : w[1];
}
