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
    default:
      return { title: i18n._(msg`通知`), text: Object.entries(d).map(([k, v]) => `${k}: ${v}`).join(', ') };
  }
}
