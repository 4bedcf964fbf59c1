import { msg } from '@lingui/core/macro';
import type { I18n } from '@lingui/core';
import type { Notice } from '../../../contract/schemas.ts';

/** A notice's title and text from its code and figures (the server stores facts; the app words them). */
export function noticeWords(n: Notice, i18n: I18n): { title: string; text: string } {
  const d = n.detail;
  switch (n.code) {
    case 'fuel_low':
      return { title: i18n._(msg`燃料不足`), text: i18n._(msg`燃料只剩 ${d.fuel ?? ''}，用完后运行中的策略会自动暂停，请及时补充。`) };
    case 'fuel_empty':
      return { title: i18n._(msg`燃料已用完`), text: i18n._(msg`${d.paused ?? '0'} 个运行中的策略已暂停。补充燃料后可恢复运行。`) };
    case 'bot_paused':
      return { title: i18n._(msg`策略已暂停`), text: i18n._(msg`策略 #${d.bot ?? ''} 的订单被交易所拒绝，已自动暂停：${d.reason ?? ''}`) };
    case 'api_key_invalid':
      return { title: i18n._(msg`API 密钥失效`), text: i18n._(msg`交易所拒绝了策略 #${d.bot ?? ''} 使用的 API 密钥，策略已暂停：${d.reason ?? ''}。请检查密钥的交易权限和 IP 白名单，或重新绑定。`) };
    case 'withdrawal_failed':
      return { title: i18n._(msg`提现失败`), text: i18n._(msg`提现 ${d.amount ?? ''} USDT 到 ${d.address ?? ''} 未能完成，金额已退回余额。`) };
    default:
      return { title: i18n._(msg`通知`), text: Object.entries(d).map(([k, v]) => `${k}: ${v}`).join(', ') };
  }
}
